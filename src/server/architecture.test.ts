// What each folder may import, read from the import statements themselves, so the layering the design notes describe
// holds as the code grows: a feature's domain never reaches a router, the queue and the tRPC plumbing know no feature,
// the production server never loads an emulator, the web app takes nothing from the server but the router's type, and
// the layers form no cycle. Tests and test helpers wire everything together and are not checked.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

type TImport = { from: string; to: string; typeOnly: boolean; spec: string };

const sourceFiles = () => {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== "node_modules") walk(path);
      } else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith(".d.ts")) out.push(relative(ROOT, path));
    }
  };
  for (const dir of ["src", "db", "cli", "emulators", "workers"]) walk(join(ROOT, dir));
  return out.sort();
};

const isTestCode = (file: string) =>
  /\.(test|spec)\.tsx?$/.test(file) || /(^|\/)testing(\/|\.ts$|-[a-z]+\.ts$)/.test(file);

// `import … from "x"`, `export … from "x"`, `import "x"` and `import("x")`, over several lines if need be.
const IMPORT =
  /(?:^|[\n;])\s*(import|export)(\s+type)?\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

const resolveSpec = (from: string, spec: string) => {
  const base = resolve(ROOT, dirname(from), spec);
  for (const ext of ["", ".ts", ".tsx", ".mjs", "/index.ts"]) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return relative(ROOT, path);
  }
  return null;
};

const importsOf = (file: string): TImport[] => {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: TImport[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4]!;
    if (!spec.startsWith(".")) continue;
    const to = resolveSpec(file, spec);
    if (to === null) continue;
    out.push({ from: file, to, typeOnly: Boolean(m[2]), spec });
  }
  return out;
};

/** The layer a file belongs to; null for test code. */
const layerOf = (file: string): string | null => {
  if (isTestCode(file)) return null;
  if (file.startsWith("src/shared/")) return "shared";
  if (file.startsWith("src/web/")) return "web";
  if (file.startsWith("src/demo/")) return "demo";
  if (file.startsWith("db/")) return "db";
  if (file.startsWith("cli/")) return "cli";
  if (file.startsWith("emulators/")) return "emulators";
  if (file.startsWith("workers/")) return "workers";
  if (file.startsWith("locales/")) return "locales";
  const m = file.match(/^src\/server\/([^/]+)(\/.*)?$/);
  if (!m) return `other:${file}`;
  if (!m[2]) {
    if (file === "src/server/main.ts") return "main";
    if (file === "src/server/services.ts") return "services";
    return "kernel";
  }
  if (m[1] === "trpc") return file === "src/server/trpc/root.ts" ? "trpc-root" : "trpc";
  if (m[1] === "modules") return file === "src/server/modules/jobs.ts" ? "job-registry" : "modules";
  return m[1]!;
};

/** What each layer may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  shared: [],
  db: ["shared"],
  kernel: ["shared"],
  integrations: ["kernel", "shared", "workers"],
  storage: ["kernel", "shared"],
  pdf: ["shared"],
  services: ["integrations", "kernel", "storage"],
  live: ["db", "shared"],
  jobs: ["db", "kernel", "services", "shared"],
  trpc: ["db", "kernel", "services", "shared"],
  modules: ["db", "integrations", "jobs", "kernel", "live", "pdf", "services", "shared", "storage", "trpc"],
  "trpc-root": ["modules", "trpc"],
  "job-registry": ["integrations", "jobs", "modules", "services"],
  bots: ["db", "integrations", "jobs", "kernel", "modules", "services", "shared", "trpc", "trpc-root", "workers"],
  http: ["bots", "db", "integrations", "kernel", "live", "modules", "services", "shared", "trpc", "trpc-root"],
  cli: ["bots", "db", "integrations", "kernel", "services", "shared", "trpc", "trpc-root"],
  main: ["bots", "db", "http", "integrations", "job-registry", "jobs", "kernel", "modules", "services", "shared"],
  demo: ["db", "emulators", "integrations", "jobs", "kernel", "main", "modules", "services", "shared"],
  web: ["shared", "locales", "trpc-root"],
  emulators: ["shared"],
  workers: [],
};

const files = sourceFiles();
const imports = files.flatMap(importsOf);
const checked = imports.filter((i) => layerOf(i.from) !== null && layerOf(i.to) !== null);
const show = (list: TImport[]) => list.map((i) => `${i.from} → ${i.to}`);

const moduleOf = (file: string) => file.match(/^src\/server\/modules\/([^/]+)\//)?.[1] ?? null;
const isProcedureFile = (file: string) => /^src\/server\/modules\/[^/]+\/(router|middleware)\.ts$/.test(file);

describe("what each folder may import", () => {
  test("the sources are read: every layer is known and imports are found", () => {
    expect(files.filter((f) => layerOf(f)?.startsWith("other:"))).toEqual([]);
    expect(checked.length).toBeGreaterThan(500);
  });

  test("every layer imports only the layers below it", () => {
    const wrong = checked.filter((i) => {
      const from = layerOf(i.from)!;
      const to = layerOf(i.to)!;
      return from !== to && !(ALLOWED[from] ?? []).includes(to);
    });
    expect(show(wrong)).toEqual([]);
  });

  test("the layers form no cycle", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of checked) {
      const [a, b] = [layerOf(i.from)!, layerOf(i.to)!];
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
    const cycles = new Set<string>();
    const path: string[] = [];
    const visit = (n: string) => {
      if (path.includes(n)) {
        cycles.add([...path.slice(path.indexOf(n)), n].join(" → "));
        return;
      }
      path.push(n);
      for (const m of edges.get(n) ?? []) visit(m);
      path.pop();
    };
    for (const n of edges.keys()) visit(n);
    expect([...cycles]).toEqual([]);
  });

  test("a module's domain never imports a router, and no module imports another module's router", () => {
    const wrong = checked.filter(
      (i) =>
        /^src\/server\/modules\/[^/]+\/router\.ts$/.test(i.to) &&
        (layerOf(i.from) === "modules" || layerOf(i.from) === "job-registry") &&
        i.from !== i.to,
    );
    expect(show(wrong)).toEqual([]);
  });

  test("only a module's procedures (router.ts, middleware.ts) reach tRPC; domain and jobs do not", () => {
    const wrong = checked.filter(
      (i) => layerOf(i.from) === "modules" && layerOf(i.to) === "trpc" && !isProcedureFile(i.from) && !i.typeOnly,
    );
    expect(show(wrong)).toEqual([]);
  });

  test("trpc/ reaches the modules only from its root, and the root only their routers", () => {
    const fromTrpc = checked.filter((i) => layerOf(i.from) === "trpc" && layerOf(i.to) === "modules");
    expect(show(fromTrpc)).toEqual([]);
    const fromRoot = checked.filter((i) => layerOf(i.from) === "trpc-root" && layerOf(i.to) === "modules");
    expect(fromRoot.length).toBeGreaterThan(10);
    expect(show(fromRoot.filter((i) => !/\/router\.ts$/.test(i.to)))).toEqual([]);
  });

  test("the job registry gathers the modules' jobs.ts files only; the queue knows no feature", () => {
    const fromRegistry = checked.filter((i) => layerOf(i.from) === "job-registry" && layerOf(i.to) === "modules");
    expect(fromRegistry.length).toBeGreaterThan(5);
    expect(show(fromRegistry.filter((i) => !/\/jobs\.ts$/.test(i.to)))).toEqual([]);
    expect(show(checked.filter((i) => layerOf(i.from) === "jobs" && moduleOf(i.to) !== null))).toEqual([]);
  });

  test("features enqueue their jobs through their definitions: the queue's raw insert stays in the queue", () => {
    const raw = files.filter(
      (f) =>
        !isTestCode(f) &&
        !f.startsWith("src/server/jobs/") &&
        /\binsertJob\b/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    expect(raw).toEqual([]);
  });

  test("the production server never reaches the emulators or the demo launcher", () => {
    const byFile = new Map<string, string[]>();
    for (const i of imports) byFile.set(i.from, [...(byFile.get(i.from) ?? []), i.to]);
    const reached = new Set<string>();
    const walk = (f: string) => {
      if (reached.has(f)) return;
      reached.add(f);
      for (const t of byFile.get(f) ?? []) walk(t);
    };
    walk("src/server/main.ts");
    expect(reached.size).toBeGreaterThan(150);
    expect([...reached].filter((f) => f.startsWith("emulators/") || f.startsWith("src/demo/"))).toEqual([]);
  });

  test("the web app imports the shared code and, from the server, only the router's type", () => {
    const fromWeb = imports.filter((i) => i.from.startsWith("src/web/") && i.to.startsWith("src/server/"));
    expect(fromWeb.length).toBeGreaterThan(0);
    expect(show(fromWeb.filter((i) => !(i.typeOnly && i.to === "src/server/trpc/root.ts")))).toEqual([]);
  });

  test("the shared code and the database layer import nothing of the server", () => {
    const wrong = imports.filter(
      (i) =>
        (i.from.startsWith("src/shared/") && !i.to.startsWith("src/shared/")) ||
        (i.from.startsWith("db/") && !isTestCode(i.from) && i.to.startsWith("src/server/")),
    );
    expect(show(wrong)).toEqual([]);
  });
});
