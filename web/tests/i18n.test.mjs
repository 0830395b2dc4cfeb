// Every language has every key English has (and no others), with the same {{placeholders}};
// every t("key") written in the source exists in English. Plural keys (`_one`, `_other`, …)
// count as their base key, since languages differ in which plural forms they need; but a
// plural key has, in each language, only forms that language's own `Intl.PluralRules`
// lists, `other` among them, and every form it selects for a count from 0 to 10 000 (Polish
// one/few/many/other, English one/other; French's `many`, for whole millions, may be left to
// `other`), as i18next picks `KEY_` + `new Intl.PluralRules(lang).select(count)` and
// src/i18n.ts falls back to `KEY_other`.
import { test } from "vitest";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(obj, prefix = "", out = new Map()) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") flatten(v, key, out);
    else out.set(key, String(v));
  }
  return out;
}
const base = (key) => key.replace(PLURAL, "");
const holes = (text) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort().join(",");

// locales/LANG/AREA.json: the keys of AREA.json are under "AREA.".
function load(lng) {
  const dir = join(src, "locales", lng);
  const all = {};
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".json"))) all[f.replace(/\.json$/, "")] = JSON.parse(readFileSync(join(dir, f), "utf8"));
  return flatten(all);
}
// The languages: those in src/i18n.ts's LANGUAGES, each with a folder.
const LANGS = [...readFileSync(join(src, "i18n.ts"), "utf8").matchAll(/\{ code: "(\w+)"/g)].map((m) => m[1]);
const locales = Object.fromEntries(LANGS.map((l) => [l, load(l)]));

test("the language menu and the folders agree", () => {
  assert.deepEqual([...LANGS].sort(), readdirSync(join(src, "locales")).sort());
  assert.deepEqual([...LANGS].sort(), ["de", "en", "es", "fr", "it", "nl", "pl", "pt"]);
});

function byBase(map) {
  const out = new Map();
  for (const [k, v] of map) {
    const b = base(k);
    out.set(b, [...(out.get(b) ?? []), v]);
  }
  return out;
}

test("every language has exactly the keys English has, with the same placeholders", () => {
  const en = byBase(locales.en);
  for (const lng of LANGS.filter((l) => l !== "en")) {
    const other = byBase(locales[lng]);
    const missing = [...en.keys()].filter((k) => !other.has(k));
    const extra = [...other.keys()].filter((k) => !en.has(k));
    assert.deepEqual(missing, [], `${lng} lacks keys`);
    assert.deepEqual(extra, [], `${lng} has keys English lacks`);
    for (const [k, texts] of en) {
      const want = new Set(texts.map(holes).filter(Boolean).join(",").split(",").filter(Boolean));
      const got = new Set(other.get(k).map(holes).filter(Boolean).join(",").split(",").filter(Boolean));
      assert.deepEqual([...got].sort(), [...want].sort(), `${lng} "${k}": placeholders differ`);
    }
  }
});

test("every t(\"key\") in the source exists in English", () => {
  const en = byBase(locales.en);
  const files = readdirSync(src, { recursive: true }).filter((f) => /\.ts$/.test(f));
  const unknown = [];
  for (const f of files) {
    const text = readFileSync(join(src, f), "utf8");
    for (const m of text.matchAll(/\bt\(\s*"([^"]+)"/g)) if (!en.has(base(m[1]))) unknown.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(unknown, []);
});

test("every plural key has the forms its language's Intl.PluralRules selects", () => {
  const plurals = [...new Set([...locales.en.keys()].filter((k) => PLURAL.test(k)).map(base))];
  assert.ok(plurals.length > 20);
  for (const lng of LANGS) {
    const rules = new Intl.PluralRules(lng);
    const allowed = new Set(rules.resolvedOptions().pluralCategories);
    const needed = new Set(["other"]);
    for (let n = 0; n <= 10000; n++) needed.add(rules.select(n));
    for (const b of plurals) {
      const got = [...locales[lng].keys()].filter((k) => base(k) === b && PLURAL.test(k)).map((k) => k.match(PLURAL)[1]);
      const lacking = [...needed].filter((f) => !got.includes(f));
      const foreign = got.filter((f) => !allowed.has(f));
      assert.deepEqual(lacking, [], `${lng} "${b}" lacks plural forms`);
      assert.deepEqual(foreign, [], `${lng} "${b}" has forms ${lng} does not use`);
    }
  }
});
