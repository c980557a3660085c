/** Types of node-guard.mjs (plain JavaScript, loaded by server.mjs without a build). */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** What Node's 'clientError' event hands over: an Error with the parser's code and the bytes it failed on. */
export type TClientError = Error | { code?: string; rawPacket?: Buffer };

export declare const INVALID_TARGET_HEADER: 'x-invalid-request-target';
export declare const INVALID_TARGET_PATH: '/api/_invalid-request-target';
export declare const SOCKET_ADDRESS_HEADER: 'x-client-socket-address';
export declare const MAX_URL_LENGTH: number;
export declare const requestTargetProblem: (target: string) => string | null;
export declare const guardRequest: (req: IncomingMessage) => void;
export declare const clientErrorAnswer: (err: { code?: string; rawPacket?: Buffer } | undefined) => { status: number; code: string; message: string };
export declare const answerClientError: (
  err: TClientError | undefined,
  socket: Duplex | Socket | { writable: boolean; bytesWritten?: number; remoteAddress?: string; destroy(): void; end(data: string): void },
  log?: Pick<Console, 'warn'>,
) => void;
