// Fast refresh's set-up for `npm run dev`, loaded as a module: the inline script Vite would add is
// refused by the CSP (no inline script). Empty in a production build.
import '@vitejs/plugin-react/preamble';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
