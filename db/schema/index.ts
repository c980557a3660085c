/** Every table, one file per domain. */
export * from './users';
export * from './auth';
export * from './ledger';
export * from './world';
export * from './markets';
export * from './pools';
export * from './perps';
export * from './notifications';
export * from './social';
export * from './moderation';
export * from './events';
export * from './chats';
export * from './points';
export * from './wallets';
export * from './standings';
export * from './a2a';
export * from './idempotency';
