import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, useNavigate, useLocation, useParams, useSearchParams, Navigate, Outlet, useMatches } from 'react-router';
import { RouterProvider } from 'react-router/dom';
function App() { const n = useNavigate(); const l = useLocation(); const p = useParams(); const [s] = useSearchParams(); console.log(n, l, p, s, useMatches()); return <><Outlet /><Link to="/">x</Link><Navigate to="/" /></>; }
createRoot(document.body).render(<RouterProvider router={createBrowserRouter([{ path: '/', element: <App /> }])} />);
