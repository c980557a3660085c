'use client';

import { Badge } from '@/components/ui/badge';
import { Card, CardTitle } from '@/components/ui/card';
import { formatRelativeTime } from '@/components/ui/format';
import { useMarketNews, type TNewsItem } from '@/lib/client/queries/markets';
import { SectionError, SectionLoading } from './section-states';

const NewsItem = ({ item }: { item: TNewsItem }) => (
  <li className="flex flex-col gap-1 border-t border-line py-3 first:border-t-0">
    <div className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">
      {item.organization && <Badge tone="neutral">${item.organization.ticker}</Badge>}
      <Badge tone={item.impact > 0 ? 'up' : item.impact < 0 ? 'down' : 'neutral'}>
        {item.impact > 0 ? 'Positive' : item.impact < 0 ? 'Negative' : 'Neutral'} for {item.organization?.name ?? 'the market'}
      </Badge>
      <time dateTime={item.createdAt}>{formatRelativeTime(item.createdAt)}</time>
    </div>
    <h3 className="text-sm font-semibold text-ink">{item.title}</h3>
    <p className="text-sm text-ink-muted">{item.content}</p>
  </li>
);

/** World news the game tied to this question, newest first. */
export const MarketNews = ({ marketId }: { marketId: string }) => {
  const news = useMarketNews(marketId);
  return (
    <Card aria-labelledby="news-title" className="flex flex-col gap-3">
      <CardTitle id="news-title">Related news</CardTitle>
      {news.isPending ? (
        <SectionLoading label="Loading news" rows={2} />
      ) : news.isError ? (
        <SectionError error={news.error} onRetry={() => news.refetch()} isRetrying={news.isFetching} />
      ) : news.data.length === 0 ? (
        <p className="text-sm text-ink-muted">No news has touched this question yet.</p>
      ) : (
        <ul aria-label="Related news, newest first">
          {news.data.map((n) => (
            <NewsItem key={n.id} item={n} />
          ))}
        </ul>
      )}
    </Card>
  );
};
