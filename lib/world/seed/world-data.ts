/**
 * The fixed content of the seeded world: fictional companies, NPC actors, questions and pools.
 * An organization's volatility is its fair value's standard deviation per game tick (lib/game/prices).
 */
export const ORGANIZATIONS = [
  { id: 'org-nexa', name: 'Nexa Dynamics', ticker: 'NEXA', volatility: '0.0005', sector: 'AI', price: '142.50', description: 'Builds reasoning engines for logistics and finance.' },
  { id: 'org-qbit', name: 'Qubit Labs', ticker: 'QBIT', volatility: '0.0007', sector: 'Quantum computing', price: '88.20', description: 'Racing to a thousand stable qubits.' },
  { id: 'org-helx', name: 'Helix Biotherapeutics', ticker: 'HELX', volatility: '0.0008', sector: 'Biotech', price: '54.75', description: 'Gene therapies with a flair for press releases.' },
  { id: 'org-solr', name: 'Solaris Grid', ticker: 'SOLR', volatility: '0.0006', sector: 'Energy', price: '31.10', description: 'Orbital solar and a very long roadmap.' },
  { id: 'org-orbt', name: 'Orbital Freight', ticker: 'ORBT', volatility: '0.0005', sector: 'Space', price: '212.00', description: 'Cargo to low orbit, on time most of the time.' },
  { id: 'org-mntl', name: 'Mantle Mining', ticker: 'MNTL', volatility: '0.0007', sector: 'Materials', price: '12.40', description: 'Deep-crust minerals and deeper controversies.' },
  { id: 'org-vrse', name: 'Verse Media', ticker: 'VRSE', volatility: '0.0004', sector: 'Media', price: '67.90', description: 'Every screen, every feed, every opinion.' },
  { id: 'org-kldr', name: 'Kaleido Robotics', ticker: 'KLDR', volatility: '0.0005', sector: 'Robotics', price: '99.99', description: 'Household robots that mostly fold laundry.' },
] as const;

export const ACTORS = [
  { slug: 'ada_vance', name: 'Ada Vance', tier: 'S', org: 'org-nexa', role: 'CEO of Nexa Dynamics', bio: 'Building the machine that reads the market. Opinions are my own, and usually right.' },
  { slug: 'marcus_reed', name: 'Marcus Reed', tier: 'S', org: null, role: 'Macro fund manager', bio: 'Thirty years of calling tops. Twice correctly.' },
  { slug: 'lena_okafor', name: 'Lena Okafor', tier: 'A', org: 'org-helx', role: 'Chief scientist at Helix', bio: 'Science first, hype never. Mostly never.' },
  { slug: 'dex_moreau', name: 'Dex Moreau', tier: 'A', org: null, role: 'Crypto-native trader', bio: 'Leverage is a lifestyle. Liquidated 14 times, still here.' },
  { slug: 'priya_sharma', name: 'Priya Sharma', tier: 'A', org: 'org-qbit', role: 'Qubit Labs founder', bio: 'Quantum supremacy is a matter of when, not if.' },
  { slug: 'tomas_berg', name: 'Tomas Berg', tier: 'B', org: 'org-orbt', role: 'Launch director', bio: 'T-minus always. Ask me about delays (don\'t).' },
  { slug: 'june_park', name: 'June Park', tier: 'B', org: null, role: 'Financial journalist', bio: 'Breaking stories before they break you.' },
  { slug: 'rafael_cruz', name: 'Rafael Cruz', tier: 'B', org: 'org-solr', role: 'Energy analyst', bio: 'The grid is the story. Everything else is weather.' },
  { slug: 'nina_volkov', name: 'Nina Volkov', tier: 'C', org: 'org-mntl', role: 'Mining engineer', bio: 'Digging for alpha, literally.' },
  { slug: 'oscar_lim', name: 'Oscar Lim', tier: 'C', org: 'org-vrse', role: 'Media critic', bio: 'I watch so you do not have to.' },
  { slug: 'greta_holm', name: 'Greta Holm', tier: 'C', org: 'org-kldr', role: 'Robotics tinkerer', bio: 'My robot folds laundry better than I do.' },
  { slug: 'sam_quinn', name: 'Sam Quinn', tier: 'B', org: null, role: 'Prediction-market regular', bio: 'Calibration is a personality trait.' },
] as const;

/** Questions: yes/no weights give the opening price (yesPrice = yes / (yes + no)). */
/**
 * The seed's questions. Most are storylines the world's news does not measure (their market decides
 * them, as an administrator's questions). One is about a real quantity, SOLR's price: it is a price
 * rule on its ticker, worded as the game's own price questions ({date} is its resolution date,
 * filled in at seeding), and resolves from SOLR's price at that date, never from its market.
 */
export const QUESTIONS: readonly {
  id: string;
  text: string;
  yes: string;
  no: string;
  days: number;
  /**
   * A price rule on a ticker, with the probability it is born with: lib/game/outcomes.ts
   * priceProbability from the organization's seeded price and volatility over `days` (a constant,
   * as all three are; lib/game/outcomes.test.ts recomputes it).
   */
  price?: { org: string; ticker: string; comparison: 'above' | 'below'; threshold: number; probability: string };
}[] = [
  { id: 'seed-q-1', text: 'Will Nexa Dynamics announce a reasoning engine for airlines this quarter?', yes: '550', no: '450', days: 30 },
  { id: 'seed-q-2', text: 'Will Qubit Labs demonstrate 1,000 stable qubits before year end?', yes: '300', no: '700', days: 45 },
  { id: 'seed-q-3', text: 'Will Orbital Freight complete three launches this month?', yes: '500', no: '500', days: 20 },
  { id: 'seed-q-4', text: 'Will Helix Biotherapeutics get approval for its flagship therapy?', yes: '400', no: '600', days: 60 },
  { id: 'seed-q-5', text: 'Will $SOLR close above 40 by {date}?', yes: '350', no: '650', days: 40, price: { org: 'org-solr', ticker: 'SOLR', comparison: 'above', threshold: 40, probability: '0.034401' } },
  { id: 'seed-q-6', text: 'Will Verse Media be acquired within 90 days?', yes: '200', no: '800', days: 90 },
];

export const POOLS = [
  { id: 'seed-pool-1', actor: 'marcus_reed', name: 'Reed Macro Fund', tier: 'S', fee: '0.2000', value: '50000', description: 'Top-down macro bets across every ticker.' },
  { id: 'seed-pool-2', actor: 'dex_moreau', name: 'Dex Degen Pool', tier: 'A', fee: '0.1500', value: '20000', description: 'High leverage, high conviction, high drama.' },
  { id: 'seed-pool-3', actor: 'sam_quinn', name: 'Calibrated Capital', tier: 'B', fee: '0.1000', value: '10000', description: 'Patient positions in mispriced questions.' },
  { id: 'seed-pool-4', actor: 'nina_volkov', name: 'Deep Crust Value', tier: 'C', fee: '0.0500', value: '5000', description: 'Materials and energy, bought cheap.' },
] as const;

export const ACTOR_STARTING_BALANCE = '10000';
/** An actor's starting points by tier (paid through the points ledger). */
/**
 * An NPC's starting standing, by tier: a modest base; after that it earns by its activity at each
 * daily close (lib/points/npc-activity.ts), as players earn by theirs (issue 31: no fixed NPC points).
 */
export const ACTOR_POINTS = { S: 400, A: 300, B: 200, C: 100 } as const;

/** Opening posts of the NPC actors, so the first feed is not empty (the game tick adds more). */
export const SEED_POSTS = [
  { id: 'seed-post-1', actor: 'ada_vance', minutesAgo: 240, content: 'Nexa just shipped reasoning engine v4. Logistics clients report 30% fewer missed deliveries. #NEXA #AI' },
  { id: 'seed-post-2', actor: 'marcus_reed', minutesAgo: 200, content: 'Everyone is long #QBIT. When everyone is long, I get curious about the other side. @priya_sharma prove me wrong.' },
  { id: 'seed-post-3', actor: 'priya_sharma', minutesAgo: 180, content: '@marcus_reed a thousand stable qubits by spring. Bookmark this. #QBIT #quantum' },
  { id: 'seed-post-4', actor: 'dex_moreau', minutesAgo: 150, content: 'Thinking about a 40x long on #ORBT. Risk management is for people without conviction.' },
  { id: 'seed-post-5', actor: 'june_park', minutesAgo: 120, content: 'Sources say Helix trial results land this week. The prediction market already moved. #HELX' },
  { id: 'seed-post-6', actor: 'rafael_cruz', minutesAgo: 90, content: 'Solaris grid uptime hit 99.2% last quarter. The roadmap is long but the panels are real. #SOLR #energy' },
  { id: 'seed-post-7', actor: 'sam_quinn', minutesAgo: 45, content: 'Calibration check: my 70% calls came true 68% of the time this month. Markets keep you honest. #markets' },
  { id: 'seed-post-8', actor: 'greta_holm', minutesAgo: 10, content: 'Kaleido robot folded 40 shirts in an hour. Then it folded the cat. Partial credit. #KLDR #robots' },
] as const;

/**
 * The news already in the papers when the world starts (the breaking-news widget is never empty).
 * All older than an hour, so the first game tick finds a quiet world and makes fresh news.
 */
export const SEED_NEWS = [
  { id: 'seed-news-1', kind: 'product_launch', org: 'org-nexa', actor: null, minutesAgo: 300, title: 'Nexa Dynamics ships reasoning engine v4', content: 'Logistics clients report 30% fewer missed deliveries. $NEXA traders took notice.' },
  { id: 'seed-news-2', kind: 'executive_statement', org: 'org-qbit', actor: 'priya_sharma', minutesAgo: 190, title: 'Priya Sharma: "a thousand stable qubits by spring"', content: 'The Qubit Labs founder doubled down on her roadmap. $QBIT moves.' },
  { id: 'seed-news-3', kind: 'regulatory_probe', org: 'org-mntl', actor: null, minutesAgo: 125, title: 'Regulators open a probe into Mantle Mining', content: 'Officials want documents on deep-crust permits. $MNTL dips.' },
] as const;

/**
 * Groups (lib/groups): one per organization (open; run by an actor of that company when it has
 * one), an invite-only circle for each of the top two actor tiers, and two open themes. The game
 * tick invites players whose trades and follows fit, and the members talk in the group's chat.
 */
export const GROUPS = [
  ...ORGANIZATIONS.map((o) => {
    const insider = ACTORS.find((a) => a.org === o.id);
    return {
      id: `group-${o.id}`,
      name: `$${o.ticker} Traders`,
      description: `Everything ${o.name}: news, fair value and who is long or short. ${o.description}`,
      kind: 'organization' as const,
      visibility: 'open' as const,
      owner: insider?.slug ?? 'june_park',
      organizationId: o.id as string | null,
      tier: null as string | null,
      members: ACTORS.filter((a) => a.org === o.id || a.slug === 'june_park').map((a) => a.slug as string),
    };
  }),
  ...(['S', 'A'] as const).map((tier) => {
    const circle = ACTORS.filter((a) => a.tier === tier);
    return {
      id: `group-tier-${tier.toLowerCase()}`,
      name: tier === 'S' ? 'The S-Tier Room' : 'A-List Desk',
      description: `Invite only: the tier ${tier} actors and the players who follow them closely.`,
      kind: 'tier' as const,
      visibility: 'invite' as const,
      owner: circle[0]!.slug as string,
      organizationId: null as string | null,
      tier: tier as string | null,
      members: circle.map((a) => a.slug as string),
    };
  }),
  {
    id: 'group-theme-leverage',
    name: 'Leverage Lounge',
    description: 'Perps, funding and the occasional liquidation story. Size responsibly (nobody does).',
    kind: 'theme' as const,
    visibility: 'open' as const,
    owner: 'dex_moreau',
    organizationId: null as string | null,
    tier: null as string | null,
    members: ['dex_moreau', 'marcus_reed', 'tomas_berg'],
  },
  {
    id: 'group-theme-calibration',
    name: 'Calibration Club',
    description: 'Prediction markets, base rates and Brier scores. Bring your priors.',
    kind: 'theme' as const,
    visibility: 'open' as const,
    owner: 'sam_quinn',
    organizationId: null as string | null,
    tier: null as string | null,
    members: ['sam_quinn', 'june_park', 'lena_okafor'],
  },
];
