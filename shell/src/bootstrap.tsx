import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { makeRouter } from './router';
import './shell.css';

createRoot(document.getElementById('root')!).render(<RouterProvider router={makeRouter()} />);
