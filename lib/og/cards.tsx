/**
 * Share cards (Open Graph images, 1200x630 PNG) drawn with Next's ImageResponse (satori + resvg).
 * The font is Inter from lib/og/fonts (SIL Open Font License, next to it), read from disk: nothing
 * is fetched at run time. Satori would download a fallback font from Google for any character
 * Inter's Latin subset lacks, so text is first reduced to characters that subset covers
 * (emoji and other scripts are dropped from the card, never from the data).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ImageResponse } from 'next/og';
import type { ReactElement, ReactNode } from 'react';

export const CARD_SIZE = { width: 1200, height: 630 } as const;
export const CARD_CONTENT_TYPE = 'image/png';

const FONT_DIR = path.join(process.cwd(), 'lib', 'og', 'fonts');

type TFont = { name: string; data: ArrayBuffer; weight: 400 | 700; style: 'normal' };
let fonts: Promise<TFont[]> | undefined;

const loadFonts = () =>
  (fonts ??= Promise.all(
    ([400, 700] as const).map(async (weight) => {
      const buf = await fs.readFile(path.join(FONT_DIR, `inter-latin-${weight}-normal.woff`));
      return { name: 'Inter', data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer, weight, style: 'normal' as const };
    }),
  ).catch((e) => {
    fonts = undefined;
    throw e;
  }));

/** Printable ASCII, Latin-1 and the typographic marks of Inter's Latin subset. */
const COVERED = /[\u0020-\u007E\u00A0-\u00FF\u0131\u0152\u0153\u2010-\u2027\u2030-\u203A\u20AC\u2122\u2212]/u;

/** Text the bundled font can draw: whitespace runs become one space, uncovered characters go. */
export function cardText(s: string | null | undefined, max = Infinity): string {
  const kept = [...(s ?? '').replace(/\s+/gu, ' ')].filter((c) => COVERED.test(c)).join('').replace(/ {2,}/g, ' ').trim();
  const chars = [...kept];
  return chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : kept;
}

/** 1234 → "1,234"; 1234567 → "1.2M". */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${(n / 1e9).toFixed(1).replace(/\.0$/, '')}B`;
  if (abs >= 1e6) return `${(n / 1e6).toFixed(1).replace(/\.0$/, '')}M`;
  if (abs >= 1e5) return `${Math.round(n / 1e3)}K`;
  return Math.round(n).toLocaleString('en-US');
}

const C = {
  canvas: '#0b0d12',
  surface: '#12151c',
  line: '#262b36',
  ink: '#e8eaf0',
  muted: '#9aa2b1',
  faint: '#6b7383',
  accent: '#8b93ff',
  up: '#3ddc97',
  down: '#ff6b6b',
};

const Frame = ({ label, children, footer }: { label: string; children: ReactNode; footer?: ReactNode }) => (
  <div
    style={{
      width: '100%',
      height: '100%',
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: '56px 72px',
      backgroundColor: C.canvas,
      backgroundImage: `radial-gradient(circle at 100% 0%, ${C.accent}33 0%, ${C.canvas} 55%)`,
      color: C.ink,
      fontFamily: 'Inter',
    }}
  >
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
        <div style={{ width: 44, height: 44, borderRadius: 12, backgroundColor: C.accent, display: 'flex', alignItems: 'center', justifyContent: 'center', color: C.canvas, fontSize: 28, fontWeight: 700 }}>
          P
        </div>
        <div style={{ fontSize: 32, fontWeight: 700 }}>Playmoney</div>
      </div>
      <div style={{ display: 'flex', fontSize: 24, color: C.muted, textTransform: 'uppercase', letterSpacing: 2 }}>{label}</div>
    </div>
    <div style={{ display: 'flex', flexDirection: 'column', flexGrow: 1, justifyContent: 'center' }}>{children}</div>
    {footer ? <div style={{ display: 'flex', alignItems: 'flex-end', justifyContent: 'space-between' }}>{footer}</div> : null}
  </div>
);

const Stat = ({ label, value, color }: { label: string; value: string; color?: string }) => (
  <div style={{ display: 'flex', flexDirection: 'column', marginRight: 56 }}>
    <div style={{ fontSize: 44, fontWeight: 700, color: color ?? C.ink }}>{value}</div>
    <div style={{ fontSize: 22, color: C.muted, textTransform: 'uppercase', letterSpacing: 1.5 }}>{label}</div>
  </div>
);

const Stats = ({ items }: { items: { label: string; value: string; color?: string }[] }) => (
  <div style={{ display: 'flex' }}>
    {items.map((s) => (
      <Stat key={s.label} {...s} />
    ))}
  </div>
);

const headlineSize = (text: string) => (text.length > 110 ? 48 : text.length > 60 ? 58 : 68);

/** A PNG response of `card` at 1200x630 with the bundled font; cached briefly, as prices and counts move. */
export async function renderCard(card: ReactElement, opts: { maxAgeSec?: number } = {}): Promise<ImageResponse> {
  return new ImageResponse(card, {
    ...CARD_SIZE,
    fonts: await loadFonts(),
    headers: { 'Cache-Control': `public, max-age=${opts.maxAgeSec ?? 300}, stale-while-revalidate=3600` },
  });
}

export type TMarketCard = {
  question: string;
  yesPrice: number;
  volume: number;
  status: string;
  resolvedOutcome: string | null;
};

export function MarketCard({ question, yesPrice, volume, status, resolvedOutcome }: TMarketCard) {
  const q = cardText(question, 160);
  const pct = Math.round(yesPrice * 100);
  const resolved = status === 'resolved' && resolvedOutcome;
  return (
    <Frame
      label="Prediction market"
      footer={
        <Stats
          items={[
            resolved
              ? { label: 'Resolved', value: resolvedOutcome, color: resolvedOutcome === 'YES' ? C.up : C.down }
              : { label: 'Yes', value: `${pct}%`, color: C.up },
            ...(resolved ? [] : [{ label: 'No', value: `${100 - pct}%`, color: C.down }]),
            { label: 'Volume', value: compactNumber(volume) },
          ]}
        />
      }
    >
      <div style={{ display: 'flex', fontSize: headlineSize(q), fontWeight: 700, lineHeight: 1.15 }}>{q}</div>
      <div style={{ display: 'flex', marginTop: 36, height: 16, width: '100%', borderRadius: 8, backgroundColor: `${C.down}55` }}>
        <div style={{ display: 'flex', width: `${Math.min(100, Math.max(0, pct))}%`, height: 16, borderRadius: 8, backgroundColor: C.up }} />
      </div>
    </Frame>
  );
}

export type TProfileCard = {
  displayName: string;
  username: string;
  bio: string | null;
  followers: number;
  following: number;
  posts: number;
  trades: number;
  reputation: number;
};

export function ProfileCard(p: TProfileCard) {
  const name = cardText(p.displayName, 40) || cardText(p.username, 40);
  const bio = cardText(p.bio, 180);
  return (
    <Frame
      label="Player"
      footer={
        <Stats
          items={[
            { label: 'Followers', value: compactNumber(p.followers) },
            { label: 'Following', value: compactNumber(p.following) },
            { label: 'Posts', value: compactNumber(p.posts) },
            { label: 'Trades', value: compactNumber(p.trades) },
            { label: 'Reputation', value: compactNumber(p.reputation), color: C.accent },
          ]}
        />
      }
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 36 }}>
        <div
          style={{ width: 132, height: 132, borderRadius: 66, backgroundColor: C.surface, border: `3px solid ${C.accent}`, display: 'flex', alignItems: 'center', justifyContent: 'center', fontSize: 64, fontWeight: 700, color: C.accent }}
        >
          {(name[0] ?? '?').toUpperCase()}
        </div>
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          <div style={{ display: 'flex', fontSize: 64, fontWeight: 700 }}>{name}</div>
          <div style={{ display: 'flex', fontSize: 32, color: C.muted }}>@{cardText(p.username, 40)}</div>
        </div>
      </div>
      {bio ? <div style={{ display: 'flex', marginTop: 32, fontSize: 32, lineHeight: 1.35, color: C.ink }}>{bio}</div> : null}
    </Frame>
  );
}

export type TPostCard = {
  authorName: string;
  username: string;
  content: string;
  likes: number;
  comments: number;
  shares: number;
};

export function PostCard(p: TPostCard) {
  const author = cardText(p.authorName, 40) || cardText(p.username, 40);
  const content = cardText(p.content, 280);
  return (
    <Frame
      label="Post"
      footer={
        <Stats
          items={[
            { label: 'Likes', value: compactNumber(p.likes) },
            { label: 'Comments', value: compactNumber(p.comments) },
            { label: 'Shares', value: compactNumber(p.shares) },
          ]}
        />
      }
    >
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 16, marginBottom: 24 }}>
        <div style={{ display: 'flex', fontSize: 36, fontWeight: 700 }}>{author}</div>
        <div style={{ display: 'flex', fontSize: 28, color: C.muted }}>@{cardText(p.username, 40)}</div>
      </div>
      <div style={{ display: 'flex', fontSize: content.length > 160 ? 36 : 46, lineHeight: 1.3 }}>{content}</div>
    </Frame>
  );
}

/** What a share link shows when the thing is gone (deleted market, renamed user). */
export function FallbackCard({ label = 'Social trading' }: { label?: string }) {
  return (
  <Frame label={label}>
    <div style={{ display: 'flex', fontSize: 68, fontWeight: 700, lineHeight: 1.15 }}>Trade predictions and perpetuals with play money.</div>
    <div style={{ display: 'flex', marginTop: 28, fontSize: 32, color: C.muted }}>Follow players, back pools, climb the leaderboard.</div>
  </Frame>
);
}

/** The share image of a post, for the post page's opengraph-image once it exists. */
export function postCardImage(post: TPostCard) {
  return renderCard(<PostCard {...post} />);
}
