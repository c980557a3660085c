/** npm run world-report — how well the world's resolved questions were priced (lib/game/report.ts). Reads only. */
import { getDb } from '@/db/client';
import { formatWorldReport, readResolvedQuestions, worldReport } from '@/lib/game/report';
import { runScript } from './run-db-script';

await runScript(async () => formatWorldReport(worldReport(await readResolvedQuestions(await getDb()))));
