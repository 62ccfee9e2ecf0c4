/**
 * play.google.com on a real capture: one answer of Google Play's batchexecute reviews RPC for
 * com.twitter.android (40 reviews and a continuation token), as fabiouu/appvox saved it (see
 * ./captures/SOURCE.md). Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/review_relevant.html?raw";
import { parseReviewsAnswer, RPC_ID } from "../../../src/publishers/google-play/rpc";
import { parseContext } from "../walk-support";

const KEY = "com.twitter.android/en/us";
const PAGE = "https://play.google.com/store/apps/details?id=com.twitter.android&hl=en&gl=us";
const GUARD = ")]}'";

/**
 * The envelope as the module receives it. The capture's guard has no line break after it (today's
 * answers put `)]}'` on a line of its own), so exactly those four characters are cut; and it
 * answers the `UsvDTd` RPC, which carries the same payload as `oCPfdb`, so only that entry's RPC
 * name is set to the one the module calls. Nothing else is touched.
 */
function envelope(): unknown[] {
  expect(raw.startsWith(GUARD)).toBe(true);
  const entries = JSON.parse(raw.slice(GUARD.length)) as unknown[][];
  expect(entries[0]?.slice(0, 2)).toEqual(["wrb.fr", "UsvDTd"]);
  return entries.map((entry, i) => (i === 0 ? ["wrb.fr", RPC_ID, ...entry.slice(2)] : entry));
}

describe("google-play on a real capture (fabiouu/appvox review_relevant.html, 2021-01)", () => {
  it("reads all 40 reviews, three of them exactly, and the continuation token", () => {
    const page = parseReviewsAnswer(envelope(), parseContext(KEY, PAGE, { page: 0, token: null }));
    expect(page.reviews).toHaveLength(40);
    expect(page.pageLanguage).toBe("en");
    expect(page.next).toEqual({
      page: 1,
      token: expect.stringMatching(/^CsIBCr8BKpgBCmz3O5rNSf____9nYWlh.*zY29yZV92MmE$/),
    });
    expect(page.reviews[0]).toEqual({
      id: "gp:AOqpTOEG141w8NXyoj4CFpinzfXvBYYywrWQdoRk3NMYLgGE-8TmYXHQhFgs-pXL25gDnLulPidwqJvbcxNK3A",
      author_name: "hayzel rose ilagan",
      rating: { value: 5, best: 5, worst: 1 },
      text: 'I see that a lot here rate the app for a glitch that happened once or yesterday. Im here to rate the app for my 9 years of using it. It\'s awesome. 👌 this app became my newspaper, a journal where I can freely share my thoughts without thinking of who might "react" on it, I found an encouraging community to speak up, this has been my go to app to motivate myself (it really depends on who you follow tho) but to sum it up, twitter is one of the best social media platform.',
      url: PAGE,
      date: "2021-01-20T01:34:05.000Z",
    });
    expect(page.reviews[1]).toEqual({
      id: "gp:AOqpTOEAwZX1e7CUex4D06PVP2O7i9ENYHktm-BqxQUyEtyOuPyXioDPQm7tuB7N7wEVIhwUHxxfu65kXETAXw",
      author_name: "Crazy Diamond",
      rating: { value: 2, best: 5, worst: 1 },
      text: "Twitter is just very buggy application since I've installed it. I've been trying to post some photos of my drawings for example, and Twitter just keeps crashing. It closes out of the app, and ups an error message saying \"Twitter isn't responding\" and will keep repeating the same error message over and over again for about a minute. This is very annyoing, especially when I can't even post anything anymore because of this. And the problem is that no one is trying to fix this.",
      url: PAGE,
      date: "2021-01-09T04:15:28.000Z",
    });
    expect(page.reviews[39]).toEqual({
      id: "gp:AOqpTOETc65KmXYfaEG9Uol7YXtjirRzFpYHrlVr68_7ficvHDxc0xSqakiL8fnh6UBPRfogchQhEmduDs214Q",
      author_name: "hanaa 81",
      rating: { value: 1, best: 5, worst: 1 },
      text: "I thought there was something wrong with my password because I was logged out of my account, I know it's right but anyways I reset it but I'm still not able to log in. Thank god it's not only me but come on fix the bug!!!!!",
      url: PAGE,
      date: "2021-01-09T15:14:14.000Z",
    });
  });
});
