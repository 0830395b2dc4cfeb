// What went wrong, in the reader's language, for every page: the server's `error` code picks
// a translated sentence (`game.error.CODE`); its `reason` (English, for people reading logs)
// is the fallback for a code the app has no text for.
import i18next from "i18next";
import { ApiError } from "./api";
import { t } from "./i18n";

export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    const key = `game.error.${e.code}`;
    if (i18next.exists(key)) return t(key);
    // Players and the lobby keep their texts in their own area.
    if (i18next.exists(`lobby.error.${e.code}`)) return t(`lobby.error.${e.code}`);
  }
  return e instanceof Error ? e.message : String(e);
}
