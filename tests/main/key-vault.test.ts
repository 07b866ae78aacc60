import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_FILE, safeStorageKeyStore } from '../../src/main/key-vault';
import { tempDir } from '../support/cli';
import { fakeSafeStorage } from './fake-safe-storage';

const KEY = 'sk_live_4f9c2b7e1d0a8c6b';
const SERVICE = 'https://transcripts.example.com/';
const BOUND = { key: KEY, serviceUrl: SERVICE };

function vaultIn(dir: string, safeStorage = fakeSafeStorage(), platform: NodeJS.Platform = 'linux') {
  return safeStorageKeyStore({ safeStorage, file: join(dir, KEY_FILE), platform });
}

/** Every byte the vault left in the folder, as text, hex and base64, to look for the key in. */
function everythingOnDisk(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name)))
    .map((bytes) => [bytes.toString('utf8'), bytes.toString('hex'), bytes.toString('base64')].join('\n'))
    .join('\n');
}

describe('the desktop key vault', () => {
  it('saves the key encrypted by safeStorage, readable after a restart, never in plain text', () => {
    const dir = tempDir();
    const keychain = fakeSafeStorage({ secret: randomBytes(32) });
    const vault = vaultIn(dir, keychain);
    const status = vault.save(`  ${KEY}\n`, SERVICE);
    expect(status).toMatchObject({ set: true, storage: 'encrypted' });
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(vault.read()).toEqual(BOUND);

    expect(readdirSync(dir)).toEqual([KEY_FILE]);
    expect(everythingOnDisk(dir)).not.toContain(KEY);
    if (process.platform !== 'win32') expect(statSync(join(dir, KEY_FILE)).mode & 0o077).toBe(0);

    const restarted = vaultIn(dir, keychain);
    expect(restarted.status()).toMatchObject({ set: true, storage: 'encrypted' });
    expect(restarted.read()).toEqual(BOUND);
    restarted.read();
    expect(keychain.calls.filter((call) => call === 'decrypt')).toHaveLength(1);
  });

  it('removes the saved key from disk', () => {
    const dir = tempDir();
    const keychain = fakeSafeStorage();
    const vault = vaultIn(dir, keychain);
    vault.save(KEY, SERVICE);
    expect(vault.remove()).toEqual({
      set: false,
      storage: null,
      message: 'No key is set.',
    });
    expect(vault.read()).toBeUndefined();
    expect(existsSync(join(dir, KEY_FILE))).toBe(false);
    expect(vaultIn(dir, keychain).read()).toBeUndefined();
  });

  it('keeps the key for the session only, and says why, where the system offers no encryption', () => {
    const dir = tempDir();
    const vault = vaultIn(dir, fakeSafeStorage({ available: false }));
    expect(vault.status()).toEqual({
      set: false,
      storage: null,
      message:
        'No key is set. Because this system offers no encryption for saved secrets, a key you enter is kept only until Scriptorium closes.',
    });
    const status = vault.save(KEY, SERVICE);
    expect(status).toMatchObject({ set: true, storage: 'session' });
    expect(status.message).toMatch(
      /kept only until Scriptorium closes, because this system offers no encryption/,
    );
    expect(vault.read()).toEqual(BOUND);
    expect(readdirSync(dir)).toEqual([]);
    expect(vaultIn(dir, fakeSafeStorage({ available: false })).read()).toBeUndefined();
  });

  it("treats Linux's built-in password ('basic_text') as no encryption", () => {
    const dir = tempDir();
    const keychain = fakeSafeStorage({ backend: 'basic_text' });
    const vault = vaultIn(dir, keychain);
    const status = vault.save(KEY, SERVICE);
    expect(status).toMatchObject({ set: true, storage: 'session' });
    expect(status.message).toMatch(/no system keyring \(such as GNOME Keyring or KWallet\)/);
    expect(keychain.calls).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    // The backend name is a Linux notion; elsewhere safeStorage's own answer decides.
    expect(vaultIn(tempDir(), keychain, 'darwin').save(KEY, SERVICE)).toMatchObject({ storage: 'encrypted' });
  });

  it('asks for the key again when the saved one cannot be decrypted (the keychain changed)', () => {
    const dir = tempDir();
    vaultIn(dir, fakeSafeStorage()).save(KEY, SERVICE);
    const vault = vaultIn(dir, fakeSafeStorage());
    expect(vault.read()).toBeUndefined();
    expect(vault.status()).toEqual({
      set: false,
      storage: null,
      message:
        "The saved key could not be decrypted (the system's secure storage may have changed). Enter your key again.",
    });
    expect(vault.save('sk_live_new', SERVICE)).toMatchObject({ set: true, storage: 'encrypted' });
    expect(vault.read()).toEqual({ key: 'sk_live_new', serviceUrl: SERVICE });
  });

  it('says a saved key cannot be read while the system offers no encryption, without deleting it', () => {
    const dir = tempDir();
    const secret = randomBytes(32);
    vaultIn(dir, fakeSafeStorage({ secret })).save(KEY, SERVICE);
    const locked = vaultIn(dir, fakeSafeStorage({ secret, available: false }));
    expect(locked.read()).toBeUndefined();
    expect(locked.status().message).toMatch(
      /^A saved key exists, but it cannot be decrypted now because this system offers no encryption/,
    );
    expect(vaultIn(dir, fakeSafeStorage({ secret })).read()).toEqual(BOUND);
  });

  it('keeps the service address encrypted with the key, and knows no address for a bare key an earlier version saved', () => {
    const dir = tempDir();
    const keychain = fakeSafeStorage({ secret: randomBytes(32) });
    vaultIn(dir, keychain).save(KEY, SERVICE);
    expect(everythingOnDisk(dir)).not.toContain('transcripts.example.com');
    expect(vaultIn(dir, keychain).read()).toEqual(BOUND);

    writeFileSync(join(dir, KEY_FILE), keychain.encryptString(KEY));
    expect(vaultIn(dir, keychain).read()).toEqual({ key: KEY, serviceUrl: null });
  });
});
