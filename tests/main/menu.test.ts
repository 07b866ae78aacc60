import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { applicationMenu } from '../../src/main/menu';

/** Every role in the menu, submenus included. */
function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

describe("a packaged app's menu", () => {
  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    it(`on ${platform}: editing, zoom and the window, but no reload and no developer tools`, () => {
      const menu = roles(applicationMenu(platform));
      expect(menu).toEqual(
        expect.arrayContaining(['undo', 'cut', 'copy', 'paste', 'selectAll', 'zoomIn', 'minimize']),
      );
      expect(menu).toContain(platform === 'darwin' ? 'close' : 'quit');
      for (const developing of ['reload', 'forceReload', 'toggleDevTools', 'viewMenu']) {
        expect(menu).not.toContain(developing);
      }
    });
  }
});
