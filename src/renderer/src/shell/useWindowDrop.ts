import { useEffect, useState } from 'react';
import { droppedLinks, linesOfFile } from '../lib/source-text';
import { navigate, routeHref } from '../routing';
import { newJobStore } from '../stores';

/** A sources file larger than this is surely not one (200,000 long URLs fit in it). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const TEXT_FILE = /\.(txt|csv|tsv|list|md)$/i;

/**
 * Files and links dropped anywhere on the window become sources of the New job form, which opens.
 * Drags that start inside the page (moving text in the paste box) are left to the browser.
 * Returns whether something droppable is being dragged over the window.
 */
export function useWindowDrop(): boolean {
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    let insideDrag = false;
    let depth = 0;
    const fromOutside = (event: DragEvent): boolean => {
      const types = event.dataTransfer?.types ?? [];
      return (
        !insideDrag &&
        (types.includes('Files') || types.includes('text/uri-list') || types.includes('text/plain'))
      );
    };
    const onDragStart = () => {
      insideDrag = true;
    };
    const onDragEnd = () => {
      insideDrag = false;
    };
    const onDragEnter = (event: DragEvent) => {
      if (!fromOutside(event)) return;
      depth += 1;
      setDragging(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (!fromOutside(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDragOver = (event: DragEvent) => {
      if (!fromOutside(event) || event.dataTransfer === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (event: DragEvent) => {
      if (!fromOutside(event) || event.dataTransfer === null) return;
      // Also keeps the browser (or the desktop window) from navigating to the dropped file or link.
      event.preventDefault();
      depth = 0;
      setDragging(false);
      const transfer = event.dataTransfer;
      const files = [...transfer.files];
      // The strings must be read now: the drop's data is gone once this handler returns.
      const links =
        files.length > 0
          ? []
          : droppedLinks(transfer.getData('text/uri-list'), transfer.getData('text/plain'));
      navigate(routeHref.newJob);
      if (links.length > 0)
        newJobStore.getState().addLines(links, links.length === 1 ? 'the dropped link' : 'the dropped links');
      for (const file of files) void addFile(file);
    };

    // One signal takes every listener off again when the window no longer wants drops.
    const listening = new AbortController();
    const { signal } = listening;
    window.addEventListener('dragstart', onDragStart, { signal });
    window.addEventListener('dragend', onDragEnd, { signal });
    window.addEventListener('dragenter', onDragEnter, { signal });
    window.addEventListener('dragleave', onDragLeave, { signal });
    window.addEventListener('dragover', onDragOver, { signal });
    window.addEventListener('drop', onDrop, { signal });
    return () => listening.abort();
  }, []);

  return dragging;
}

/** Reads a text or CSV file into the New job form, or says why it was left out. */
export async function addFile(file: File): Promise<void> {
  const store = newJobStore.getState();
  if (!TEXT_FILE.test(file.name) && !file.type.startsWith('text/')) {
    store.noteAdded(`${file.name} was left out: only text and CSV files can be read.`);
    return;
  }
  if (file.size > MAX_FILE_BYTES) {
    store.noteAdded(`${file.name} was left out: it is larger than a list of sources can be (32 MB).`);
    return;
  }
  const lines = linesOfFile(file.name, await file.text());
  if (lines.length === 0) store.noteAdded(`${file.name} holds no sources.`);
  else store.addLines(lines, file.name);
}
