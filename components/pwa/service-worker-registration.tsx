'use client';

import { useEffect } from 'react';

/**
 * Registers the service worker (public/sw.js) once the page has loaded, in production builds
 * only: in development it would serve stale chunks over hot reload. It registers ours and
 * unregisters nothing. Renders nothing.
 */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (process.env.NODE_ENV !== 'production' || !('serviceWorker' in navigator)) return;
    const register = () => {
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
        // Not installable this time (private mode, blocked storage): the app works without it.
      });
    };
    if (document.readyState === 'complete') register();
    else {
      window.addEventListener('load', register, { once: true });
      return () => window.removeEventListener('load', register);
    }
  }, []);
  return null;
}
