import type { Page } from '@playwright/test';

// The browser globals the function below uses in the page. This file is type-checked as Node code
// (no DOM library), and a declaration in a module stays in the module.
declare const document: { querySelector(selector: string): EventTarget | null; body: EventTarget };
declare class DataTransfer {
  setData(type: string, data: string): void;
  readonly items: { add(file: File): void };
}
declare class DragEvent extends Event {
  constructor(type: string, init: { dataTransfer: DataTransfer; bubbles: boolean; cancelable: boolean });
}

/** Drops a link or a file on the page, as a drag from a browser or a file manager would. */
export async function dropOnWindow(
  page: Page,
  what: { uriList?: string; file?: { name: string; text: string } },
): Promise<void> {
  await page.evaluate(({ uriList, file }) => {
    const transfer = new DataTransfer();
    if (uriList !== undefined) {
      transfer.setData('text/uri-list', uriList);
      transfer.setData('text/plain', uriList);
    }
    if (file !== undefined) transfer.items.add(new File([file.text], file.name, { type: 'text/csv' }));
    const target = document.querySelector('main') ?? document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, what);
}
