// Runs once when the server starts (next dev, next start): migrations, world seed, scheduler.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { boot } = await import('./lib/boot');
  await boot();
}
