// The layer rule: an import may point to its own layer or a lower one, never upwards
// (docs/architecture.md, "Layers"). A local ESLint rule rather than no-restricted-imports, because
// it resolves each relative import against the importing file: folder names repeat across layers
// (core/publishers/, app/queue/), so the import text alone cannot say where it points.
import { dirname, relative, resolve, sep } from "node:path";

/** Top-level folders and files of src/, lowest first. A layer may import its own rank and below. */
export const LAYERS = [
  { name: "core", rank: 0, paths: ["core"] },
  { name: "shared", rank: 1, paths: ["settings.ts", "log.ts", "streams.ts"] },
  { name: "storage, db, queue, account", rank: 2, paths: ["storage", "db", "queue", "account"] },
  { name: "publishers, scraping", rank: 3, paths: ["publishers", "scraping"] },
  { name: "app", rank: 4, paths: ["app"] },
  { name: "http", rank: 5, paths: ["http"] },
  { name: "the Worker's entry", rank: 6, paths: ["index.ts", "bench"] },
];

/** Packages that do I/O (or bind to the platform): the pure core imports none of them. */
const IO_PACKAGES = [/^cloudflare:/, /^drizzle-orm(\/|$)/, /^@cloudflare\/puppeteer(\/|$)/, /^hono(\/|$)/];

function layerOf(srcRoot, file) {
  const rel = relative(srcRoot, file);
  if (rel.startsWith("..")) return null;
  const top = rel.split(sep)[0];
  const withTs = top.endsWith(".ts") ? top : `${top}.ts`;
  return LAYERS.find((layer) => layer.paths.includes(top) || layer.paths.includes(withTs)) ?? null;
}

/** @type {import("eslint").Rule.RuleModule} */
const noUpwardImport = {
  meta: {
    type: "problem",
    docs: { description: "Forbid imports that point to a higher layer of src/ (or out of client/)." },
    schema: [],
    messages: {
      upward:
        "{{from}} may not import {{to}} ({{spec}}): the layers go http → app → publishers, scraping → storage, db, queue, account → core.",
      ioInCore: "The core is pure: it may not import {{spec}}.",
      outOfClient:
        "client/ is copied by webhook receivers as it is: it may not import {{spec}} from outside client/.",
    },
  },
  create(context) {
    const filename = context.filename;
    const root = context.cwd;
    const srcRoot = resolve(root, "src");
    const clientRoot = resolve(root, "client");
    const inClient = !relative(clientRoot, filename).startsWith("..");
    const from = layerOf(srcRoot, filename);
    if (!from && !inClient) return {};
    function check(node, spec) {
      if (typeof spec !== "string") return;
      if (!spec.startsWith(".")) {
        if (from?.rank === 0 && IO_PACKAGES.some((re) => re.test(spec)))
          context.report({ node, messageId: "ioInCore", data: { spec } });
        return;
      }
      const target = resolve(dirname(filename), spec);
      if (inClient) {
        if (relative(clientRoot, target).startsWith(".."))
          context.report({ node, messageId: "outOfClient", data: { spec } });
        return;
      }
      const to = layerOf(srcRoot, target);
      if (to && to.rank > from.rank)
        context.report({ node, messageId: "upward", data: { from: from.name, to: to.name, spec } });
    }
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node.source, node.source.value),
    };
  },
};

export const layersPlugin = { rules: { "no-upward-import": noUpwardImport } };

/** The flat-config block that turns the rule on for src/ and client/. */
export const layersConfig = {
  files: ["src/**/*.ts", "client/**/*.ts"],
  plugins: { layers: layersPlugin },
  rules: { "layers/no-upward-import": "error" },
};
