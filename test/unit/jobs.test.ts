/** The cron tick's jobs (src/app/jobs.ts): one failing job neither stops the others nor throws. */
import { describe, expect, it, vi } from "vitest";
import { runEach } from "../../src/app/jobs";

describe("runEach", () => {
  it("runs every job in order even when one fails, and logs the failure by job name", async () => {
    const ran: string[] = [];
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await runEach("cron", [
      ["first", async () => void ran.push("first")],
      [
        "broken",
        async () => {
          ran.push("broken");
          throw new Error("D1_ERROR: no such table");
        },
      ],
      ["last", async () => void ran.push("last")],
    ]);
    expect(ran).toEqual(["first", "broken", "last"]);
    const lines = logged.mock.calls.map(
      (args) => JSON.parse(String(args[0])) as { message: string; job: string; error: string },
    );
    expect(lines).toEqual([
      expect.objectContaining({
        message: "cron job failed",
        job: "broken",
        error: expect.stringContaining("no such table"),
      }),
    ]);
  });
});
