/** Runs a database script and turns a failure into one readable line and exit code 1. */
import { closeDb } from '@/db/client';

export const runScript = async (fn: () => Promise<string>) => {
  try {
    console.log(await fn());
    await closeDb();
  } catch (e) {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
};
