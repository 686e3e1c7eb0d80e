export type TokenKind = 'word' | 'number' | 'sentence-end' | 'comma' | 'open' | 'close';

export interface Token {
  kind: TokenKind;
  /** Lower-cased word, or the raw digits of a number, or the punctuation mark. */
  text: string;
  /** Parsed value of a number token; 0 for every other kind. */
  value: number;
}

const CURRENCY_SYMBOLS = new Set(['$', '€', '£', '¥']);

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z (the text is lower-cased first)
    code === 39 || // '
    code === 0x2019 || // ’
    (code > 127 && code !== 0x2019 && !isSeparatorAbove127(code))
  );
}

function isSeparatorAbove127(code: number): boolean {
  return (
    code === 0xa0 || // no-break space
    (code >= 0x2000 && code <= 0x206f) || // general punctuation: dashes, quotes, spaces
    code === 0x20ac || // €
    code === 0xa3 || // £
    code === 0xa5 || // ¥
    code === 0xab || // «
    code === 0xbb || // »
    code === 0x3000
  );
}

/** A "-" or "−" that signs a number: not preceded by a letter or digit ("EUR -0.4 mn", not "1-9"). */
function isMinusSign(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code !== 45 && code !== 0x2212) return false;
  if (index === 0) return true;
  const previous = text.charCodeAt(index - 1);
  return !isDigit(previous) && !isWordChar(previous);
}

/**
 * Reads a number starting at `start`: digits with `.`/`,` groups, plus the ` .5` continuation that
 * some wire feeds produce when they re-space "13.5" as "13 .5".
 */
function readNumber(text: string, start: number): { end: number; raw: string } {
  let end = start;
  while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
  for (;;) {
    const mark = text.charCodeAt(end);
    if ((mark === 46 || mark === 44) && isDigit(text.charCodeAt(end + 1))) {
      end += 1;
      while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
      continue;
    }
    if (mark === 32 && text.charCodeAt(end + 1) === 46 && isDigit(text.charCodeAt(end + 2))) {
      const raw = text.slice(start, end) + text.slice(end + 1, end + 2);
      const rest = readNumber(text, end + 2);
      return { end: rest.end, raw: raw + rest.raw };
    }
    break;
  }
  return { end, raw: text.slice(start, end) };
}

/** Parses "1,445", "3,5", "1.234.567", "2,400.50" and "13.6" by where the separators sit. */
export function parseNumber(raw: string): number {
  const firstDot = raw.indexOf('.');
  if (raw.indexOf(',') < 0 && firstDot === raw.lastIndexOf('.')) return Number(raw);
  const lastDot = raw.lastIndexOf('.');
  const lastComma = raw.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    return Number(raw.split(thousands).join('').replace(decimal, '.'));
  }
  const separator = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : '';
  if (separator === '') return Number(raw);
  const groups = raw.split(separator);
  const looksLikeThousands = groups.length > 2 || (separator === ',' && groups[1].length === 3);
  return looksLikeThousands ? Number(groups.join('')) : Number(groups.join('.'));
}

/**
 * Splits text into lower-case words, numbers and the punctuation the rules care about. Hyphens and
 * quotes separate words; `%` and currency symbols become words of their own.
 */
export function tokenize(input: string): Token[] {
  const text = input.toLowerCase();
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (isDigit(code) || (isMinusSign(text, index) && isDigit(text.charCodeAt(index + 1)))) {
      const negative = !isDigit(code);
      const { end, raw } = readNumber(text, negative ? index + 1 : index);
      const value = parseNumber(raw);
      tokens.push({ kind: 'number', text: negative ? `-${raw}` : raw, value: negative ? -value : value });
      index = end;
    } else if (isWordChar(code)) {
      let end = index + 1;
      let hasCurlyApostrophe = code === 0x2019;
      while (end < text.length && isWordChar(text.charCodeAt(end))) {
        if (text.charCodeAt(end) === 0x2019) hasCurlyApostrophe = true;
        end += 1;
      }
      const raw = text.slice(index, end);
      const word = hasCurlyApostrophe ? raw.replace(/’/g, "'") : raw;
      if (word !== "'" && word !== "''") tokens.push({ kind: 'word', text: word, value: 0 });
      index = end;
    } else {
      const char = text[index];
      if (char === '.' || char === ';' || char === '!' || char === '?' || char === ':') {
        tokens.push({ kind: 'sentence-end', text: char, value: 0 });
      } else if (char === ',') {
        tokens.push({ kind: 'comma', text: char, value: 0 });
      } else if (char === '(' || char === '[') {
        tokens.push({ kind: 'open', text: char, value: 0 });
      } else if (char === ')' || char === ']') {
        tokens.push({ kind: 'close', text: char, value: 0 });
      } else if (char === '%' || CURRENCY_SYMBOLS.has(char)) {
        tokens.push({ kind: 'word', text: char, value: 0 });
      }
      index += 1;
    }
  }
  return tokens;
}
