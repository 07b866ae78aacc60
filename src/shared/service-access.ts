/**
 * What Scriptorium may send where: the service addresses it accepts and the API keys it can send.
 * Every face checks these before any request (docs/product.md, "Key, address and data folder").
 * Each checker returns `null` when the value is fine, or a plain-language sentence saying why not.
 */

/** Plain http only reaches this computer: elsewhere the key would cross the network unencrypted. */
function isLoopbackHost(hostname: string): boolean {
  // The URL parser has already written any IPv4 form (127.1, 2130706433) as a dotted quad.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The service's address: https, or http on a loopback address (127.0.0.0/8, localhost, [::1]). */
export function checkServiceAddress(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `The service address "${address}" is not an address: it must look like https://api.example.com.`;
  }
  // A name or password in the address would travel, and be written, wherever the address is: a
  // corpus names its service's address.
  if (url.username !== '' || url.password !== '') {
    return `The service address "${withoutCredentials(url)}" holds a name or password before its host: give the address alone (the key is sent apart, never in the address).`;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  const local = 'http:// only for a service on this computer: localhost, 127.x.x.x or [::1]';
  if (url.protocol === 'http:') {
    return `The service address "${address}" must start with https:// (${local}), so that the key never crosses the network unencrypted.`;
  }
  return `The service address "${address}" must start with https:// (${local}).`;
}

function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/**
 * The address as a corpus names it: scheme, host, port and path, without a query or fragment (which
 * requests never carry) and with a trailing slash, as requests join paths to it.
 */
export function citedServiceAddress(address: string): string {
  const url = new URL(address);
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return `${url.origin}${path}`;
}

/** Two spellings of one address ("https://a.example" and "https://a.example/") are the same address. */
export function sameServiceAddress(a: string, b: string): boolean {
  return normalized(a) === normalized(b);
}

function normalized(address: string): string {
  try {
    const url = new URL(address);
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return url.href;
  } catch {
    return address;
  }
}

/** Names of the characters a pasted key most often carries by mistake. */
const CHARACTER_NAMES: Readonly<Record<string, string>> = {
  '\n': 'a line break',
  '\r': 'a carriage return',
  '\t': 'a tab',
  ' ': 'a space',
};

/**
 * The fewest characters a key may have. No service issues shorter keys, and a key of a character or
 * two could be part of any text: the client would then find it inside the service's answers, which it
 * must store as they are (docs/product.md, "Key, address and data folder").
 */
export const MIN_API_KEY_LENGTH = 8;

/**
 * An API key travels in the header `Authorization: Bearer <key>`, and a bearer token is letters,
 * digits and punctuation (RFC 6750's b64token is narrower still). A line break, a control character
 * or a typographic character pasted from a web page (an en dash, a non-breaking space) cannot be
 * sent at all, and a key shorter than MIN_API_KEY_LENGTH is none: such a key is refused before
 * anything is created or sent. Surrounding white space is trimmed by the stores before this check.
 */
export function checkApiKey(key: string): string | null {
  let position = 0;
  for (const character of key) {
    position += 1;
    const code = character.codePointAt(0) ?? 0;
    if (code >= 0x21 && code <= 0x7e) continue;
    const name =
      CHARACTER_NAMES[character] ??
      (code < 0x20 || code === 0x7f ? 'a control character' : 'a character that is not plain ASCII');
    const unicode = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return (
      `The API key holds ${name} (${unicode}) at character ${position}, which cannot be sent in a request: ` +
      'a key is made of letters, digits and punctuation only. Copy it again from your account page.'
    );
  }
  if (position < MIN_API_KEY_LENGTH) {
    return (
      `The API key has ${position} character${position === 1 ? '' : 's'}, too few to be a key ` +
      `(a key has at least ${MIN_API_KEY_LENGTH}). Copy it again from your account page.`
    );
  }
  return null;
}
