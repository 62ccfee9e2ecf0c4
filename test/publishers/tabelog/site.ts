/**
 * Fixture tabelog.com: a restaurant's server-rendered review list,
 * `/{pref}/{A4}/{A6}/{id}/dtlrvwlst/?smp=1&lc=0&rvw_part=all&srt=visit&sby=D&PG=N`, 20 cards a page,
 * each `<div class="rvw-item js-rvw-item-clickable-area" data-detail-url="…/dtlrvwlst/B…/">` with
 * the reviewer (`a.rvw-item__rvwr-name` with a trailing country badge, `.rvw-item__rvwr-num`), the
 * score (`p.rvw-item__ratings-total` > `b.c-rating-v3__val`, with a dinner or lunch icon), the visit
 * month (`.rvw-item__date-inner` > `span` "2025/03訪問", then the visit count), the title
 * (`a.rvw-item__title-target`), the text (`.rvw-item__rvw-comment` > `p`) and photos
 * (`a.js-imagebox-trigger`): krisamin/tabelog-cli `src/command/review.ts` and `src/url.ts`
 * @5b5b56e5 (2026, MIT). The aspect scores (`li.c-rating-detail__item` > `span` label, `strong`
 * value), the header score (`.rdheader-rating__score-val-dtl`) and review count
 * (`#rdnavi-review .rstdtl-navi__total-count em`): Ihsan28/scrapy_tablog_scraper
 * `tabelog_scraper/spiders/restaurants.py` @95bf2669 (2025-07-01). The reviews are invented.
 *
 * Without `srt=visit&sby=D` the cards come in another order ("recommended"), without
 * `rvw_part=all` the texts are cut to excerpts: a module that forgets either gets wrong answers.
 *
 * Restaurants: tokyo/A1301/A130101/13001234 (45 reviews, 3 pages; review 7 has no score "-",
 * review 3 a dinner and a lunch score, review 0 photos, aspects, a `<br>` and `&amp;`),
 * osaka/A2701/A270101/27000001 (no reviews), kyoto/A2601/A260201/26000002 (a page without the
 * restaurant header or cards: a maintenance page served with 200), unknown: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const RESTAURANT = "tokyo/A1301/A130101/13001234";
export const EMPTY = "osaka/A2701/A270101/27000001";
export const MAINTENANCE = "kyoto/A2601/A260201/26000002";
const PER_PAGE = 20;

export interface TabelogFixtureReview {
  id: string;
  author: string;
  country: string | null;
  authorPath: string;
  authorCount: number;
  /** Scores as printed: dinner first; "-" where the reviewer gave none. */
  scores: { time: "dinner" | "lunch"; value: string; aspects: [string, string][] }[];
  visited: string;
  visitCount: number;
  title: string;
  /** Text lines (joined with `<br>` in the page). */
  lines: string[];
  photos: string[];
}

const ASPECTS = ["料理・味", "サービス", "雰囲気", "CP", "酒・ドリンク"];

function review(i: number): TabelogFixtureReview {
  const month = 10 - Math.floor(i / 4); // 2026-10 back: four visits a month
  const year = month > 0 ? 2026 : 2025;
  const m = month > 0 ? month : month + 12;
  const value = i === 7 ? "-" : ["3.5", "4.2", "3.0", "4.8", "2.6"][i % 5];
  return {
    id: `B${412000000 + i}`,
    author: i === 0 ? "食べ歩き太郎" : `レビュアー${i}`,
    country: i === 1 ? "台湾" : null,
    authorPath: `/rvwr/user${i}/`,
    authorCount: i === 0 ? 1234 : 10 + i,
    scores: [
      {
        time: "dinner",
        value,
        aspects: i === 7 ? [] : ASPECTS.map((label, k) => [label, ["4.0", "3.5", "3.8", "3.2", "-"][k]]),
      },
      ...(i === 3
        ? [{ time: "lunch" as const, value: "3.1", aspects: [["料理・味", "3.0"]] as [string, string][] }]
        : []),
    ],
    visited: `${year}/${String(m).padStart(2, "0")}訪問`,
    visitCount: (i % 3) + 1,
    title: i === 0 ? "季節の天ぷらとお酒 & 穏やかな時間" : `口コミ${i}`,
    lines:
      i === 0
        ? ["カウンターで揚げたての天ぷらをいただきました。", "海老とかき揚げが絶品でした。また伺います！"]
        : [`とても美味しかったです。料理${i}がおすすめです。雰囲気も良く、また訪れたいお店です。`],
    photos: i === 0 ? [`https://tblg.k-img.com/restaurant/images/Rvw/1/640x640_rect_1a2b3c.jpg`] : [],
  };
}

export const REVIEWS: TabelogFixtureReview[] = Array.from({ length: 45 }, (_, i) => review(i));

const esc = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function card(path: string, r: TabelogFixtureReview, full: boolean): string {
  const text = r.lines.map(esc).join("<br>\n");
  const shown = full ? text : `${esc(r.lines[0].slice(0, 12))}…`;
  const scores = r.scores
    .map(
      (s) =>
        `<li class="rvw-item__ratings-item"><p class="c-rating-v3 rvw-item__ratings-total">` +
        `<span class="c-rating-v3__time c-rating-v3__time--${s.time}" aria-label="${s.time === "dinner" ? "夜の点数" : "昼の点数"}"></span>` +
        `<b class="c-rating-v3__val c-rating-v3__val--strong rvw-item__ratings--val">${s.value}</b></p>` +
        `<ul class="rvw-item__ratings-dtlscore">${s.aspects
          .map(
            ([label, v]) =>
              `<li class="c-rating-detail__item"><span>${label}</span><strong>${v}</strong></li>`,
          )
          .join("")}</ul></li>`,
    )
    .join("");
  const photos = r.photos
    .map(
      (p) =>
        `<li class="rvw-photo__list-item"><a class="js-imagebox-trigger" href="${p}"><img src="${p}"></a></li>`,
    )
    .join("");
  return `<div class="rvw-item js-rvw-item-clickable-area" data-detail-url="/${path}/dtlrvwlst/${r.id}/">
  <div class="rvw-item__rvwr-data">
    <img class="rvw-item__rvwr-img" src="https://tblg.k-img.com/images/rvwr_nophoto_70x70_re1.gif">
    <a class="rvw-item__rvwr-name" href="${r.authorPath}"><span>${esc(r.author)}</span>${r.country ? `<span class="rstdtl-rvw-country"><span class="rstdtl-rvw-country__name">${r.country}</span></span>` : ""}</a>
    <p class="rvw-item__rvwr-num">${r.authorCount.toLocaleString("en-US")}件の口コミ</p>
  </div>
  <div class="rvw-item__review-contents-wrap"><div class="rvw-item__review-contents">
    <div class="rvw-item__visit-contents">
      <div class="rvw-item__date"><p class="rvw-item__date-inner"><span>${r.visited}</span><span class="rvw-item__count-num">${r.visitCount}回目</span></p></div>
      <ul class="rvw-item__ratings">${scores}</ul>
      <div class="rvw-item__payment-amount"><span class="rvw-item__payment-amount-delimiter">￥10,000～￥14,999</span></div>
    </div>
    <p class="rvw-item__title"><a class="rvw-item__title-target" href="/${path}/dtlrvwlst/${r.id}/"><strong>${esc(r.title)}</strong></a></p>
    <div class="rvw-item__rvw-comment rvw-item__rvw-comment--custom"><p>${shown}</p></div>
    ${photos ? `<div class="rvw-photo"><ul class="rvw-photo__list">${photos}</ul></div>` : ""}
  </div></div>
</div>`;
}

function header(score: string, count: number): string {
  return `<div class="rdheader-rating"><b class="c-rating__val rdheader-rating__score-val" rel="v:rating"><span class="rdheader-rating__score-val-dtl">${score}</span></b></div>
<ul class="rstdtl-navi"><li id="rdnavi-review"><a href="#" class="rstdtl-navi__total-count">口コミ <em class="num">${count}</em></a></li></ul>`;
}

function listPage(path: string, url: URL): FixtureResponse {
  const all = path === RESTAURANT ? REVIEWS : path === EMPTY ? [] : null;
  if (all === null) return html("<html><title>ページが見つかりません</title></html>", 404);
  const page = Number(url.searchParams.get("PG") ?? "1");
  if (!Number.isInteger(page) || page < 1) return html("<html></html>", 400);
  const byVisit = url.searchParams.get("srt") === "visit" && url.searchParams.get("sby") === "D";
  // Tabelog's default order is "recommended": here the fixture's own shuffle.
  const ordered = byVisit ? all : [...all].sort((a, b) => (a.id.slice(-1) < b.id.slice(-1) ? -1 : 1));
  const full = url.searchParams.get("rvw_part") === "all";
  const cards = ordered.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((r) => card(path, r, full));
  const last = Math.max(1, Math.ceil(all.length / PER_PAGE));
  const next =
    page < last
      ? `<a class="c-pagination__arrow c-pagination__arrow--next" rel="next" href="?PG=${page + 1}">次の20件</a>`
      : "";
  return html(
    `<!DOCTYPE html><html lang="ja"><head><title>口コミ一覧 : 天ぷら 嬉野 - 食べログ</title>` +
      `<link rel="canonical" href="https://tabelog.com/${path}/dtlrvwlst/"></head><body>` +
      `<h2 class="display-name"><span>天ぷら 嬉野</span></h2>${header(all.length ? "3.58" : "-", all.length)}` +
      `<div class="rvw-item-list">${cards.join("\n")}</div>` +
      `<div class="c-pagination">${next}</div></body></html>`,
  );
}

const fixture: PublisherFixture = {
  domains: ["tabelog.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return html("<html></html>", 405);
    const list = /^\/([a-z]+\/A\d{4}\/A\d{6}\/\d+)\/dtlrvwlst\/$/.exec(url.pathname);
    if (list?.[1] === MAINTENANCE)
      return html(`<html lang="ja"><body><p>ただいまメンテナンス中です。</p></body></html>`);
    if (list) return listPage(list[1], url);
    return html("<html></html>", 404);
  },
};

export default fixture;
