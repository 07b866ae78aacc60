import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandNames } from '../../src/shared/contract';
import { buildDesktop, scratchProject } from '../main/scratch-project';

let project: string;

beforeAll(async () => {
  project = scratchProject();
  await buildDesktop(project);
}, 60_000);

describe('the desktop build', () => {
  it('builds with electron-vite, and the sandboxed preload is CommonJS needing nothing but electron', () => {
    const preload = readFileSync(join(project, 'out/preload/index.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    expect(required).toEqual(['electron']);
    expect(preload).not.toMatch(/^import /m);
    expect(readFileSync(join(project, 'out/renderer/index.html'), 'utf8')).toContain('<div id="root">');
  });

  it('exposes the contract and the desktop bridge to the page, and nothing else', async () => {
    const exposed = new Map<string, Record<string, unknown>>();
    const invoked: Array<[string, unknown]> = [];
    const electron = {
      contextBridge: {
        exposeInMainWorld: (name: string, api: Record<string, unknown>) => exposed.set(name, api),
      },
      ipcRenderer: {
        invoke: async (channel: string, input: unknown) => void invoked.push([channel, input]),
        on: () => undefined,
        removeListener: () => undefined,
      },
    };
    // As in a sandboxed renderer: a CommonJS module whose require knows 'electron' only.
    const module = { exports: {} };
    runInNewContext(readFileSync(join(project, 'out/preload/index.cjs'), 'utf8'), {
      module,
      exports: module.exports,
      require: (name: string) => {
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return electron;
      },
    });

    expect([...exposed.keys()]).toEqual(['scriptorium', 'scriptoriumDesktop']);
    expect(Object.keys(exposed.get('scriptorium') ?? {}).sort()).toEqual([...commandNames, 'on'].sort());
    const desktop = exposed.get('scriptoriumDesktop') as Record<string, (input: string) => Promise<unknown>>;
    expect(Object.keys(desktop).sort()).toEqual(['chooseExportPath', 'openExternal', 'showInFolder']);
    await desktop['chooseExportPath']?.('corpus.zip');
    await desktop['showInFolder']?.('/home/me/corpus.zip');
    await desktop['openExternal']?.('https://example.com/');
    expect(invoked).toEqual([
      ['scriptorium:desktop:chooseExportPath', 'corpus.zip'],
      ['scriptorium:desktop:showInFolder', '/home/me/corpus.zip'],
      ['scriptorium:desktop:openExternal', 'https://example.com/'],
    ]);
  });
});
