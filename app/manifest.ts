import type { MetadataRoute } from 'next';

/**
 * The web app manifest (/manifest.webmanifest): what a phone needs to install Playmoney to its
 * home screen. Colours are the theme's canvas and accent (app/globals.css); the PNG icons are
 * made from app/icon.svg by scripts/pwa-icons.mjs. The service worker is public/sw.js.
 */
export const MANIFEST_ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const satisfies MetadataRoute.Manifest['icons'];

export default function manifest(): MetadataRoute.Manifest {
  return {
    id: '/',
    name: 'Playmoney: social trading with play money',
    short_name: 'Playmoney',
    description: 'Trade prediction markets and perpetuals, back NPC-run pools and follow other players, all with virtual currency.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#0b0d12',
    theme_color: '#0b0d12',
    categories: ['games', 'finance', 'social'],
    icons: [...MANIFEST_ICONS],
  };
}
