import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseBoundKey, serializeBoundKey, type BoundKey, type KeyStore } from '../core/app';
import type { KeyStatus } from '../shared/contract';

/** The slice of Electron's safeStorage the vault uses (a fake stands in for it in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret store encrypts; 'basic_text' means a password built into Chromium. */
  getSelectedStorageBackend?(): string;
}

export interface KeyVaultOptions {
  safeStorage: SafeStorageLike;
  /** The file holding the encrypted key, in the user data folder. */
  file: string;
  /** Default: process.platform. */
  platform?: NodeJS.Platform;
}

/** The file name of the encrypted key inside the user data folder. */
export const KEY_FILE = 'api-key.enc';

/**
 * The desktop app's key store: the key encrypted by the operating system (safeStorage) in a file of
 * the user data folder, never in the database and never sent to the renderer. Where the system
 * offers no real encryption, the key is kept in memory for this session only, and the status says
 * why. The service address the key was saved with is encrypted with it (see BoundKey). The decrypted
 * key is kept in memory once read, so the system's keychain is asked only once.
 */
export function safeStorageKeyStore(options: KeyVaultOptions): KeyStore {
  const { safeStorage, file } = options;
  const platform = options.platform ?? process.platform;
  /** A key entered while encryption is unavailable: it is gone when the app quits. */
  let sessionKey: BoundKey | undefined;
  /** The saved key, once decrypted. */
  let savedKey: BoundKey | undefined;
  /** Why the saved file could not be read, when it could not. */
  let unreadable: string | undefined;

  const noEncryptionReason = (): string | undefined => {
    if (!safeStorage.isEncryptionAvailable()) return 'this system offers no encryption for saved secrets';
    if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
      return 'no system keyring (such as GNOME Keyring or KWallet) is available to encrypt it';
    }
    return undefined;
  };

  const readSaved = (): BoundKey | undefined => {
    if (savedKey !== undefined || !existsSync(file)) return savedKey;
    const reason = noEncryptionReason();
    if (reason !== undefined) {
      unreadable = `A saved key exists, but it cannot be decrypted now because ${reason}.`;
      return undefined;
    }
    try {
      savedKey = parseBoundKey(safeStorage.decryptString(readFileSync(file)));
      unreadable = undefined;
    } catch {
      unreadable = "The saved key could not be decrypted (the system's secure storage may have changed).";
    }
    return savedKey;
  };

  const read = (): BoundKey | undefined => sessionKey ?? readSaved();

  const status = (): KeyStatus => {
    const reason = noEncryptionReason();
    if (sessionKey !== undefined) {
      return {
        set: true,
        storage: 'session',
        message: `The key is kept only until Scriptorium closes, because ${reason ?? 'it could not be encrypted'}: enter it again next time.`,
      };
    }
    if (readSaved() !== undefined) {
      return {
        set: true,
        storage: 'encrypted',
        message: "The key is saved on this computer, encrypted by the system's secure storage.",
      };
    }
    if (unreadable !== undefined) {
      return { set: false, storage: null, message: `${unreadable} Enter your key again.` };
    }
    if (reason !== undefined) {
      return {
        set: false,
        storage: null,
        message: `No key is set. Because ${reason}, a key you enter is kept only until Scriptorium closes.`,
      };
    }
    return { set: false, storage: null, message: 'No key is set.' };
  };

  const keepForSession = (key: BoundKey): KeyStatus => {
    sessionKey = key;
    return status();
  };

  return {
    read,
    status,
    save(next, serviceUrl) {
      const key: BoundKey = { key: next.trim(), serviceUrl };
      if (noEncryptionReason() !== undefined) return keepForSession(key);
      let encrypted: Buffer;
      try {
        encrypted = safeStorage.encryptString(serializeBoundKey(key));
      } catch {
        return keepForSession(key);
      }
      writePrivately(file, encrypted);
      savedKey = key;
      sessionKey = undefined;
      unreadable = undefined;
      return status();
    },
    remove() {
      rmSync(file, { force: true });
      savedKey = undefined;
      sessionKey = undefined;
      unreadable = undefined;
      return status();
    },
  };
}

/** Writes readable by the user only, to a temporary name first, so a crash never leaves half a file. */
function writePrivately(file: string, bytes: Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, bytes, { mode: 0o600 });
  renameSync(temporary, file);
}
