/**
 * The storylines' answers as the UI reads them, derived from their contracts (lib/contracts/storylines).
 * Types only.
 */
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import type { actorCalibration, calibrationLeaderboard, TStory, TStoryActor, TStoryBeat } from '@/lib/contracts/storylines';

export type { TStory, TStoryActor, TStoryBeat };

export type TBeatRole = NonNullable<TStoryBeat['role']>;
export type TStoryCall = TStory['calls'][number];

export type TActorCalibrationResponse = TEndpointResponse<typeof actorCalibration>;
export type TActorCalibration = TActorCalibrationResponse['calibration'];
export type TRecentCall = TActorCalibrationResponse['recent'][number];

export type TVoice = TEndpointResponse<typeof calibrationLeaderboard>['actors'][number];

/** What a post's author carries for an NPC with at least three resolved calls (null otherwise). */
export type TAuthorCalibration = { brier: number; resolved: number };
