// One cookie jar per actor. tough-cookie does the RFC 6265 work (domain and path
// matching, expiry, Max-Age, Secure sent only over https — loopback counts as secure,
// as in browsers); this class is the small synchronous face the HTTP layer needs.
import type * as Tough from 'tough-cookie';
import { lazy } from '../project/index.js';

const tough = lazy<typeof Tough>('tough-cookie');

export class CookieJar {
  #tough?: Tough.CookieJar;
  /** created on the first cookie: most actors never receive one */
  get #jar(): Tough.CookieJar {
    return (this.#tough ??= new (tough().CookieJar)());
  }
  /** nothing stored yet: skip the lookup on every request (the common case) */
  #empty = true;

  /** Store the Set-Cookie values of a response received from `url`. Invalid ones are ignored, as browsers do. */
  store(setCookie: string | string[] | undefined, url: string): void {
    if (setCookie === undefined) return;
    for (const raw of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const stored = this.#jar.setCookieSync(raw, url, { ignoreError: true });
      if (stored) this.#empty = false;
    }
  }

  /** The Cookie header for a request to `url`, or undefined when no cookie matches. */
  headerFor(url: string): string | undefined {
    if (this.#empty) return undefined;
    const header = this.#jar.getCookieStringSync(url);
    return header || undefined;
  }

  /** name -> value of the cookies that would be sent to `url`. */
  valuesFor(url: string): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.#empty) return out;
    for (const c of this.#jar.getCookiesSync(url)) out[c.key] = c.value;
    return out;
  }
}
