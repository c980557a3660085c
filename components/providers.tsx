'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { RealtimeProvider } from '@/components/realtime/realtime-provider';
import { isClientError } from '@/lib/client/queries/errors';

const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // A 4xx answer (signed out, not found, forbidden) will not change on retry.
        retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });

export const Providers = ({ children }: { children: ReactNode }) => {
  // One client per browser tab, created lazily so it survives re-renders.
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      {/* One live connection per tab: prices, news and new posts reach every page through it. */}
      <RealtimeProvider>{children}</RealtimeProvider>
    </QueryClientProvider>
  );
};
