/**
 * PocketSphinx returns lower-case words without punctuation. Captions (and the rule-based translator,
 * which reads "i would like" as a noun phrase) need sentence case, a capital "I" and a final stop.
 */
export function toSentence(words: string, concluded: boolean): string {
  let text = words.replace(/\s+/g, ' ').trim();
  if (text === '') return '';
  text = text.replace(/\bi(?=('m|'ll|'d|'ve)?\b)/g, 'I');
  text = text[0].toUpperCase() + text.slice(1);
  if (concluded && !/[.!?]$/.test(text)) text += '.';
  return text;
}

/** Segments after the first are separated by a space, so concatenating all `text` gives the transcript. */
export function joinable(text: string, isFirst: boolean): string {
  return isFirst ? text : ` ${text}`;
}
