/**
 * thumbtack.com on a real pro page: chrischall/thumbtack-mcp's `tests/fixtures/pro-plumber.html`
 * (MIT, see ./captures/SOURCE.md), a plumber's page cut down to its JSON-LD. Expected values were
 * read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/pro-plumber.html?raw";
import { jsonLdItems, parseThumbtackPage } from "../../../src/publishers/thumbtack/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { parseContext } from "../walk-support";

const PAGE =
  "https://www.thumbtack.com/nc/charlotte/affordable-plumbing-services/mr-rooter-charlotte-nc/service/394335517902585861";

describe("thumbtack on a real pro page (chrischall/thumbtack-mcp @818e43ef, verified live 2026-08-10)", async () => {
  const items = await jsonLdItems(raw, new WorkBudget("capture"));
  const page = parseThumbtackPage(items, parseContext("394335517902585861", PAGE, { page: 1, token: null }));

  it("finds the business node by shape although its @type is Plumber, and reads its stated count", () => {
    expect(page.publisherTotal).toBe(111);
    expect(page.next).toBeNull();
    expect(page.limitedView).toBe(
      "Thumbtack's pro page carries 2 of the pro's 111 reviews; the rest come only from its GraphQL, " +
        "whose reviews query is not established by public evidence",
    );
  });

  it("maps both reviews of the nested review arrays exactly, newest first", () => {
    expect(page.reviews).toHaveLength(2);
    expect(page.reviews[0]).toEqual({
      author_name: "Robin W.",
      rating: { value: 1, best: 5, worst: 1 },
      text: expect.stringMatching(
        /^Appointment time for Monday was confirmed on Sat\. .*They offered appt and I accepted\. They no showed\.$/,
      ),
      url: PAGE,
      date: "2022-08-29",
    });
    expect((page.reviews[0].text ?? "").length).toBe(646);
    expect(page.reviews[1]).toEqual({
      author_name: "Cailyn B.",
      rating: { value: 5, best: 5, worst: 1 },
      text:
        "I can not say enough good things about our experience with the whole team at Mr. Rooter. From " +
        "assessment of the job to completion, their team communicated clearly, documented everything with " +
        "photos, explained each step and worked efficiently. We had a team of three here for four days and I " +
        "was impressed by their professionalism and attention to detail - every step was double checked and " +
        "done correctly. I sincerely hope we don't NEED a lot more work from them in the future  but if we do, " +
        "I'll always call them!",
      url: PAGE,
      date: "2021-10-22",
    });
  });
});
