import { widgetsBreakingNews } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listBreakingNews } from '@/lib/game/widgets';

// GET /api/feed/widgets/breaking-news — breaking news
export const GET = route(widgetsBreakingNews, async () => listBreakingNews());
