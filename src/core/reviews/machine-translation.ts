/**
 * Publishers that machine-translate reviews print both versions in one text, e.g.
 * "(Translated by Google) Great food (Original) Sehr gutes Essen". The service keeps what the
 * reviewer wrote. Markers are matched loosely (any parenthesised note naming Google and a word for
 * "translated", in the languages Google localises it to) because the wording varies by UI language.
 */
const TRANSLATED_MARKER =
  /\((?=[^()]*google)(?=[^()]*(?:translat|übersetz|tradu|vertaald|przetłumacz|çevir|přelož|översatt|oversat|käännetty|перевед|翻译|翻譯|翻訳|번역))[^()]*\)/iu;
const ORIGINAL_MARKER =
  /\((?:original|originale|origineel|oryginał|orijinal|originál|alkuperäinen|оригинал|原文|원문)\)/iu;

export interface UntranslatedText {
  text: string;
  /** True when a machine-translation marker was found (the page language then says nothing about the text). */
  machineTranslated: boolean;
}

export function originalText(text: string): UntranslatedText {
  const translated = TRANSLATED_MARKER.exec(text);
  if (!translated) return { text, machineTranslated: false };
  const original = ORIGINAL_MARKER.exec(text);
  if (!original) {
    // Only a translation is shown: it is all there is, minus the marker.
    return {
      text: text.slice(0, translated.index) + text.slice(translated.index + translated[0].length),
      machineTranslated: true,
    };
  }
  const originalStart = original.index + original[0].length;
  const kept =
    original.index > translated.index
      ? text.slice(originalStart)
      : text.slice(originalStart, translated.index);
  return { text: kept, machineTranslated: true };
}
