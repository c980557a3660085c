import { describe, expect, it } from 'vitest';
import { toUserSummary, userSummaryOfRow } from './dto';

const name = { id: 'u1', username: 'alice', displayName: 'Alice', profileImageUrl: null };

describe('toUserSummary', () => {
  it('the full summary by default: the name, reputation and the actor flag, nothing else', () => {
    const row = { ...name, reputationPoints: 12, isActor: false, virtualBalance: '100', authSubject: 'sub' };
    expect(toUserSummary(row)).toStrictEqual({ ...name, reputationPoints: 12, isActor: false });
  });

  it('{ reputation: false }: the name and the actor flag', () => {
    const row = { ...name, profileImageUrl: 'https://img/a.png', isActor: true, reputationPoints: 5, role: 'owner' };
    expect(toUserSummary(row, { reputation: false })).toStrictEqual({ ...name, profileImageUrl: 'https://img/a.png', isActor: true });
  });

  it('{ nameOnly: true }: the four naming fields', () => {
    const person = { ...name, isActor: true };
    expect(toUserSummary(person, { nameOnly: true })).toStrictEqual(name);
  });
});

describe('userSummaryOfRow', () => {
  const columns = { username: 'alice', display_name: 'Alice', profile_image_url: null, is_actor: false };

  it('maps the column names and takes the id from the column the query named', () => {
    const row = { ...columns, reputation_points: 7, author_id: 'u1', content: 'x' };
    expect(userSummaryOfRow(row.author_id, row)).toStrictEqual({
      ...name,
      reputationPoints: 7,
      isActor: false,
    });
  });

  it('reads reputation a driver answered as text as a number', () => {
    expect(userSummaryOfRow('u1', { ...columns, reputation_points: '42' }).reputationPoints).toBe(42);
  });

  it('{ reputation: false } gives the name and the actor flag, as toUserSummary does', () => {
    const row = { ...columns, is_actor: true, reputation_points: 3 };
    expect(userSummaryOfRow('u1', row, { reputation: false })).toStrictEqual({ ...name, isActor: true });
    const summary = { ...name, isActor: true, reputationPoints: 3 };
    expect(userSummaryOfRow('u1', row, { reputation: false })).toStrictEqual(toUserSummary(summary, { reputation: false }));
  });
});
