/**
 * The simulated registry (the default): the database is the chain. A mint always succeeds and
 * is final at once; the token id was already chosen by the identity sequence, so ids are
 * deterministic in the order registrations start and unique across users and agents.
 */
import type { TRegistrar } from './registrar';

export const SIMULATED_CUSTODY_ADDRESS = '0x0000000000000000000000000000000000000000';

export const simulatedRegistrar: TRegistrar = {
  kind: 'simulated',
  register: async (r) => ({ txHash: null, owner: r.owner ?? SIMULATED_CUSTODY_ADDRESS }),
};
