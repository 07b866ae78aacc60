import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './api';
import { createDesktopApi } from './desktop';

contextBridge.exposeInMainWorld('scriptorium', createPreloadApi(ipcRenderer));
contextBridge.exposeInMainWorld('scriptoriumDesktop', createDesktopApi(ipcRenderer));
