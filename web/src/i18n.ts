// The app's languages: English, German, Dutch, French, Spanish, Portuguese, Italian and
// Polish, through i18next. Every visible string goes through `t`; the texts live in
// `locales/LANG/AREA.json` (a key `game.x.y` is `x.y` in `game.json`), the same files and
// keys in every language (`tests/i18n.test.mjs` fails when one is missing). Plurals use
// i18next's suffixes with a `count`: i18next picks the key `KEY_` + `new
// Intl.PluralRules(lang).select(count)` (English one/other; Polish one/few/many/other), and
// each language has exactly the categories its own `Intl.PluralRules` lists (the test checks
// it). Every number put into a text is written by `Intl.NumberFormat` in the language (1 500 in
// Polish, 1.500 in German); times by `toLocaleTimeString(language())`. Server error `reason`s
// stay English: the app shows the text under `error.CODE` where it has one.
import i18next from "i18next";

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "de", name: "Deutsch" },
  { code: "nl", name: "Nederlands" },
  { code: "fr", name: "Français" },
  { code: "es", name: "Español" },
  { code: "pt", name: "Português" },
  { code: "it", name: "Italiano" },
  { code: "pl", name: "Polski" },
] as const;
export type Language = (typeof LANGUAGES)[number]["code"];

type Texts = { [key: string]: string | Texts };
const files = import.meta.glob<Texts>("./locales/*/*.json", { eager: true, import: "default" });
/** One language's texts, each file under its name. */
function texts(lng: Language): Texts {
  const out: Texts = {};
  for (const [path, content] of Object.entries(files)) {
    const m = path.match(/\.\/locales\/(\w+)\/(\w+)\.json$/);
    if (m && m[1] === lng) out[m[2]] = content;
  }
  return out;
}

const STORE_KEY = "rumis.lang";
const known = (l: string | null | undefined): l is Language => LANGUAGES.some((x) => x.code === l);

/** The language to use: the one chosen before, else the browser's first one we have, else English. */
export function pickLanguage(): Language {
  const stored = localStorage.getItem(STORE_KEY);
  if (known(stored)) return stored;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().split("-")[0];
    if (known(base)) return base;
  }
  return "en";
}

/** Keys asked for and not found, for the browser tests (and the console). */
const missing: string[] = [];
(window as unknown as { __rumisMissingKeys: string[] }).__rumisMissingKeys = missing;

// Numbers in the language's own way (1 500 in Polish, 1.500 in German, 1,500 in English).
void i18next.use({
  type: "formatter",
  init() {},
  add() {},
  addCached() {},
  format: (value: unknown, _format: string | undefined, lng: string | undefined) =>
    typeof value === "number" ? new Intl.NumberFormat(lng).format(value) : value,
}).init({
  lng: pickLanguage(),
  fallbackLng: false,
  resources: Object.fromEntries(LANGUAGES.map((l) => [l.code, { translation: texts(l.code) }])),
  // Every value goes through the formatter below (no format is named in the texts).
  interpolation: { escapeValue: false, alwaysFormat: true },
  initAsync: false,
  saveMissing: true,
  missingKeyHandler: (_lngs, _ns, key) => {
    missing.push(key);
    console.warn(`rumis: no text for "${key}" in ${i18next.language}`);
  },
});
document.documentElement.lang = i18next.language;

/** The text for `key` in the current language; `{{name}}` in it takes `params.name`. */
export function t(key: string, params?: Record<string, string | number>): string {
  // A plural form the language has but the texts leave out (French's `many`, for whole
  // millions) falls back to `_other`.
  if (params && typeof params.count === "number") {
    const form = new Intl.PluralRules(language()).select(params.count);
    if (!i18next.exists(`${key}_${form}`) && i18next.exists(`${key}_other`)) return i18next.t(`${key}_other`, params) as string;
  }
  return params ? (i18next.t(key, params) as string) : (i18next.t(key) as string);
}

export function language(): Language {
  return i18next.language as Language;
}

/** Switch language and remember the choice; the page is drawn again from scratch. */
export function setLanguage(lng: Language) {
  localStorage.setItem(STORE_KEY, lng);
  location.reload();
}

/** A small language switcher (a select), for the page headers. */
export function languagePicker(): HTMLSelectElement {
  const select = document.createElement("select");
  select.className = "lang-picker";
  select.setAttribute("aria-label", t("common.language"));
  for (const l of LANGUAGES) {
    const o = document.createElement("option");
    o.value = l.code;
    o.textContent = l.name;
    if (l.code === language()) o.selected = true;
    select.append(o);
  }
  select.addEventListener("change", () => setLanguage(select.value as Language));
  return select;
}
