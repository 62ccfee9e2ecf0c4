/**
 * CONTRIBUTING.md's folder map cannot drift: every folder under src/ is named there (publisher
 * module folders are covered by the one `src/publishers/<name>/` line), and every path it names
 * exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const guide = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
const map = guide.slice(guide.indexOf("<!-- folders:start -->"), guide.indexOf("<!-- folders:end -->"));
const named = [...map.matchAll(/^(src\/\S*)\s/gm)].map((match) => match[1]);

/** A publisher module: a folder right under src/publishers/ with an index.ts (kit/ is not one). */
function isModuleFolder(path: string): boolean {
  const [top, parent, name] = path.split("/");
  return (
    top === "src" && parent === "publishers" && name !== "kit" && existsSync(join(root, path, "index.ts"))
  );
}

function foldersUnder(path: string): string[] {
  return readdirSync(join(root, path))
    .map((entry) => `${path}/${entry}`)
    .filter((entry) => statSync(join(root, entry)).isDirectory())
    .flatMap((entry) => (isModuleFolder(entry) ? [] : [`${entry}/`, ...foldersUnder(entry)]));
}

describe("CONTRIBUTING.md folder map", () => {
  it("has the map between its markers", () => {
    expect(named.length).toBeGreaterThan(20);
  });

  it("names every folder under src/ except the module folders", () => {
    const missing = foldersUnder("src").filter((folder) => !named.includes(folder));
    expect(missing, "folders under src/ missing from CONTRIBUTING.md").toEqual([]);
  });

  it("names nothing that is gone", () => {
    const gone = named.filter((path) => !path.includes("<") && !existsSync(join(root, path)));
    expect(gone, "paths in CONTRIBUTING.md that do not exist").toEqual([]);
  });
});
