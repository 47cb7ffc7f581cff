/**
 * The viewer page's entry point: a file picker, drag and drop onto the page, a URL box, and `?url=` in the page's
 * address (so a link opens a file). Local files are read through {@link blobSource}, URLs through the reader's
 * `fetchSource` (HTTP range requests). The page's state is on `document.body.dataset.state` (`idle`, `loading`,
 * `ready`, `error`) for scripts and tests.
 * @module
 */
import { fetchSource, type ByteSource } from '@parquetry/parquet-reader';
import { ParquetError } from '@parquetry/thrift-compact';
import { blobSource } from './blob-source.js';
import { addLazyCodecs, staticCodecs } from './codecs.js';
import { loadFileLayout } from './load.js';
import { renderFile } from './view.js';

const $ = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new ParquetError('VIEWER_PAGE', `viewer: the page has no element #${id} (index.html and viewer.js do not match)`);
  return e as T;
};

let current = 0;

/**
 * Opens a file and shows it (a later call supersedes one still loading).
 * @param open - makes the byte source.
 * @param name - the file's name or URL.
 */
async function show(open: () => Promise<ByteSource>, name: string): Promise<void> {
  const run = ++current;
  const status = $('status');
  const out = $('out');
  document.body.dataset.state = 'loading';
  status.textContent = `Opening ${name}…`;
  try {
    const codecs = staticCodecs();
    const loaded = await loadFileLayout(await open(), { codecs });
    const codecErrors = await addLazyCodecs(codecs, loaded.file.metadata);
    if (run !== current) return;
    status.textContent = '';
    await renderFile(out, loaded, name, codecErrors);
    if (run === current) document.body.dataset.state = 'ready';
  } catch (e) {
    if (run !== current) return;
    out.replaceChildren();
    status.textContent = `Cannot open ${name}: ${(e as Error).message}`;
    document.body.dataset.state = 'error';
  }
}

function openUrl(url: string): void {
  void show(() => fetchSource(url), url);
}

function openBlob(file: File): void {
  void show(() => Promise.resolve(blobSource(file)), file.name);
}

function init(): void {
  document.body.dataset.state = 'idle';
  const picker = $<HTMLInputElement>('file');
  picker.addEventListener('change', () => {
    const f = picker.files?.[0];
    if (f) openBlob(f);
  });
  const form = $<HTMLFormElement>('url-form');
  const urlBox = $<HTMLInputElement>('url');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const url = urlBox.value.trim();
    if (!url) return;
    const address = new URL(window.location.href);
    address.searchParams.set('url', url);
    window.history.replaceState(null, '', address);
    openUrl(new URL(url, window.location.href).href);
  });
  document.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', (ev) => {
    ev.preventDefault();
    document.body.classList.remove('dragging');
    const f = ev.dataTransfer?.files[0];
    if (f) openBlob(f);
  });
  const param = new URLSearchParams(window.location.search).get('url');
  if (param) {
    urlBox.value = param;
    openUrl(new URL(param, window.location.href).href);
  }
}

init();
