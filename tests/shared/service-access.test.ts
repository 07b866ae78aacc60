import { describe, expect, it } from 'vitest';
import {
  checkApiKey,
  checkServiceAddress,
  citedServiceAddress,
  sameServiceAddress,
} from '../../src/shared/service-access';

describe('the service address', () => {
  it.each([
    'https://api.example.com',
    'https://api.example.com:8443/proxy/',
    'http://127.0.0.1:8787',
    'http://127.45.6.7/',
    'http://127.1:8080',
    'http://localhost:3000/',
    'http://[::1]:9000',
  ])('accepts %s', (address) => {
    expect(checkServiceAddress(address)).toBeNull();
  });

  it.each([
    ['http://example.invalid:8080', /must start with https:\/\/.*never crosses the network unencrypted/],
    ['http://192.168.1.10:8787', /must start with https:\/\//],
    ['http://10.0.0.1', /must start with https:\/\//],
    ['http://0.0.0.0:8787', /must start with https:\/\//],
    ['http://localhost.example.com', /must start with https:\/\//],
    ['http://[::ffff:7f00:1]', /must start with https:\/\//],
    ['ftp://example.com', /must start with https:\/\/ \(http:\/\/ only for a service on this computer/],
    ['file:///etc/passwd', /must start with https:\/\//],
    ['api.example.com', /is not an address: it must look like https:\/\/api\.example\.com/],
    // A corpus names its service's address: a name or password in it would be written there.
    ['https://user:secret@api.example.com/', /holds a name or password before its host/],
    ['https://sk_live_12345678@api.example.com', /holds a name or password before its host/],
    ['http://:secret@127.0.0.1:8787', /holds a name or password before its host/],
  ])('refuses %s', (address, reason) => {
    expect(checkServiceAddress(address)).toMatch(reason);
    expect(checkServiceAddress(address)).not.toMatch(/secret|sk_live/);
  });

  it('is cited without a query or fragment, with the slash requests join paths to', () => {
    expect(citedServiceAddress('https://api.example.com')).toBe('https://api.example.com/');
    expect(citedServiceAddress('https://api.example.com:8443/proxy?x=1#f')).toBe(
      'https://api.example.com:8443/proxy/',
    );
  });

  it('compares addresses as addresses, not as text', () => {
    expect(sameServiceAddress('https://a.example', 'https://a.example/')).toBe(true);
    expect(sameServiceAddress('https://A.example/v/', 'https://a.example/v')).toBe(true);
    expect(sameServiceAddress('https://a.example', 'https://b.example')).toBe(false);
    expect(sameServiceAddress('http://127.0.0.1:1/', 'http://127.0.0.1:2/')).toBe(false);
    expect(sameServiceAddress('https://a.example/one/', 'https://a.example/two/')).toBe(false);
  });
});

describe('the API key', () => {
  it('accepts letters, digits and punctuation', () => {
    expect(checkApiKey('sk_live_4f9c2b7e1d0a8c6b')).toBeNull();
    expect(checkApiKey('a-b.c~d+e/f=g!#$%&*')).toBeNull();
  });

  it.each([
    ['kl', '2 characters'],
    ['k', '1 character'],
    ['sk_1234', '7 characters'],
  ])('refuses %j: too short to be a key, which could then be part of any text', (key, count) => {
    expect(checkApiKey(key)).toBe(
      `The API key has ${count}, too few to be a key (a key has at least 8). Copy it again from your account page.`,
    );
  });

  it('accepts a key of 8 characters', () => {
    expect(checkApiKey('sk_12345')).toBeNull();
  });

  it.each([
    ['sk_live\n4f9c', 'a line break (U+000A) at character 8'],
    ['sk_live\r4f9c', 'a carriage return (U+000D) at character 8'],
    ['sk live', 'a space (U+0020) at character 3'],
    ['sk\tlive', 'a tab (U+0009) at character 3'],
    ['sk\u0000live', 'a control character (U+0000) at character 3'],
    ['sk\u2013live', 'a character that is not plain ASCII (U+2013) at character 3'],
    ['sk\u00a0live', 'a character that is not plain ASCII (U+00A0) at character 3'],
    ['sk_\u{1F511}', 'a character that is not plain ASCII (U+1F511) at character 4'],
  ])('refuses %j, naming what it holds and where', (key, what) => {
    expect(checkApiKey(key)).toBe(
      `The API key holds ${what}, which cannot be sent in a request: ` +
        'a key is made of letters, digits and punctuation only. Copy it again from your account page.',
    );
  });
});
