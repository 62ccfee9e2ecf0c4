/**
 * Products and reviews of the G2 fixture site (./site.ts). Review fields follow what
 * scrapfly/scrapfly-scrapers g2-scraper/g2.py reads from a review card (author name and profile URL
 * as metas under `itemprop="author"`, `datePublished` as a date, the `stars-N` class read as N / 2
 * stars, the title in `itemprop="name"`, the answered questions in `itemprop="reviewBody"`). Names,
 * texts, ids and dates are invented.
 */
export interface FixtureG2Review {
  id: number;
  /** `datePublished`, a date as G2 gives it. */
  date: string;
  /** The `stars-N` class: half stars, 0..10. */
  stars: number;
  author?: { name: string; url: string };
  title: string;
  /** Question heading and answer paragraphs. */
  sections: { heading: string; paragraphs: string[] }[];
  /** `inLanguage` where the review is not English. */
  language?: string;
  reply?: { text: string; date: string };
}

export interface FixtureProduct {
  slug: string;
  name: string;
  reviews: FixtureG2Review[];
  /**
   * `app-shell` (invented, see site.ts): the reviews page is only G2's app shell, the cards come from
   * `/products/<slug>/reviews_and_filters`; `app-shell-no-cards`: the fragment holds none either.
   */
  behaviour?:
    "datadome" | "datadome-403" | "cloudflare" | "changed" | "sign-in" | "app-shell" | "app-shell-no-cards";
  /**
   * Which of G2's layouts the site serves: 2024 (`itemprop="review"` cards, the default), 2025-08
   * (`article` cards with reviewRating/ratingValue microdata) or 2026-07 (`section#reviews article`,
   * the rating as text, no microdata, no next link: the walk follows the product's count).
   */
  layout?: "2024" | "2025-08" | "2026-07";
}

/** Reviews per fixture page (G2 shows 25; fewer keep the fixture small). */
export const PAGE_SIZE = 10;

const likeDislike = (product: string, like: string, dislike: string) => [
  { heading: `What do you like best about ${product}?`, paragraphs: [like] },
  { heading: `What do you dislike about ${product}?`, paragraphs: [dislike] },
];

export const WITH_REPLY: FixtureG2Review = {
  id: 10900001,
  date: "2026-10-02",
  stars: 9,
  author: { name: "Dana K.", url: "https://www.g2.com/users/dana-k" },
  title: "Pipelines that finally make sense",
  sections: [
    ...likeDislike("Acme CRM", "The pipeline board & its filters.", "Reports take a while to load."),
    {
      heading: "What problems is Acme CRM solving and how is that benefiting you?",
      paragraphs: ["We stopped losing leads in spreadsheets.", "Onboarding new reps takes a day."],
    },
  ],
  reply: { text: "Thanks Dana! Faster reports ship next month.", date: "2026-10-04" },
};

export const PORTUGUESE: FixtureG2Review = {
  id: 10900002,
  date: "2026-10-01",
  stars: 7,
  author: { name: "João P.", url: "https://www.g2.com/users/joao-p" },
  title: "Bom, mas caro",
  sections: likeDislike("Acme CRM", "A integração com o e-mail.", "O preço para equipes pequenas."),
  language: "pt",
};

/** A review without a name, title or answers: G2 shows a validated reviewer and the stars only. */
export const NO_TEXT: FixtureG2Review = {
  id: 10900003,
  date: "2026-09-30",
  stars: 4,
  title: "",
  sections: [],
};

function filler(count: number): FixtureG2Review[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 10800100 + i,
    date: new Date(Date.UTC(2026, 8, 20 - i)).toISOString().slice(0, 10),
    stars: 2 + (i % 9),
    author: { name: `User ${i + 1}`, url: `https://www.g2.com/users/user-${i + 1}` },
    title: `Review ${i + 1}`,
    sections: likeDislike("Acme CRM", `Like number ${i + 1}`, `Dislike number ${i + 1}`),
  }));
}

/** 23 reviews: pages of 10, 10 and 3. */
export const ACME: FixtureProduct = {
  slug: "acme-crm",
  name: "Acme CRM",
  reviews: [WITH_REPLY, PORTUGUESE, NO_TEXT, ...filler(20)],
};
export const EMPTY_PRODUCT: FixtureProduct = { slug: "quiet-app", name: "Quiet App", reviews: [] };
export const DATADOME: FixtureProduct = {
  slug: "guarded-app",
  name: "Guarded App",
  reviews: filler(2),
  behaviour: "datadome",
};
export const DATADOME_403: FixtureProduct = {
  slug: "refused-app",
  name: "Refused App",
  reviews: filler(2),
  behaviour: "datadome-403",
};
export const CLOUDFLARE: FixtureProduct = {
  slug: "challenged-app",
  name: "Challenged App",
  reviews: filler(2),
  behaviour: "cloudflare",
};
export const CHANGED: FixtureProduct = {
  slug: "changed-app",
  name: "Changed App",
  reviews: filler(2),
  behaviour: "changed",
};

export const SIGN_IN: FixtureProduct = {
  slug: "walled-app",
  name: "Walled App",
  reviews: filler(2),
  behaviour: "sign-in",
};

/** The 2026-07 layout: 23 reviews over pages of 10, 10 and 3, found only through the header's count. */
export const CURRENT: FixtureProduct = {
  slug: "acme-hr",
  name: "Acme HR",
  layout: "2026-07",
  reviews: [
    { ...WITH_REPLY, id: 11900001, author: { name: "Dana K.", url: "" }, reply: undefined },
    { ...PORTUGUESE, id: 11900002, author: { name: "João P.", url: "" }, language: undefined },
    { ...NO_TEXT, id: 11900003 },
    ...filler(20).map((r, i) => ({ ...r, id: 11800100 + i, author: { name: r.author!.name, url: "" } })),
  ],
};
/** The 2025-08 layout: 12 reviews over pages of 10 and 2. */
export const AUGUST_2025: FixtureProduct = {
  slug: "acme-erp",
  name: "Acme ERP",
  layout: "2025-08",
  reviews: filler(12).map((r, i) => ({ ...r, id: 12800100 + i })),
};

/**
 * The app shell of the Aug 2026 notes (invented fixture, see site.ts): the reviews page holds no
 * cards, the 2026-07 cards come from the reviews_and_filters fragment, 23 reviews over fragment pages
 * of 10, 10 and 3.
 */
export const SHELL: FixtureProduct = {
  slug: "acme-desk",
  name: "Acme Desk",
  layout: "2026-07",
  behaviour: "app-shell",
  reviews: [
    { ...WITH_REPLY, id: 13900001, author: { name: "Dana K.", url: "" }, reply: undefined },
    { ...NO_TEXT, id: 13900003 },
    ...filler(21).map((r, i) => ({ ...r, id: 13800100 + i, author: { name: r.author!.name, url: "" } })),
  ],
};
/** An app shell whose fragment answers with the product's count but no review cards (invented). */
export const SHELL_NO_CARDS: FixtureProduct = {
  slug: "hollow-desk",
  name: "Hollow Desk",
  layout: "2026-07",
  behaviour: "app-shell-no-cards",
  reviews: filler(12),
};
/** An app shell whose fragment says "(0)": a product nobody reviewed (invented). */
export const SHELL_EMPTY: FixtureProduct = {
  slug: "quiet-desk",
  name: "Quiet Desk",
  layout: "2026-07",
  behaviour: "app-shell",
  reviews: [],
};

export const PRODUCTS: FixtureProduct[] = [
  ACME,
  EMPTY_PRODUCT,
  DATADOME,
  DATADOME_403,
  CLOUDFLARE,
  CHANGED,
  SIGN_IN,
  CURRENT,
  AUGUST_2025,
  SHELL,
  SHELL_NO_CARDS,
  SHELL_EMPTY,
];

/** Most recent first, as `order=most_recent` lists them. */
export function newestFirst(p: FixtureProduct): FixtureG2Review[] {
  return [...p.reviews].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
}
