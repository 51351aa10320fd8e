import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes, Link, useNavigate, useLocation, useParams, useSearchParams, Navigate, Outlet, matchRoutes } from 'react-router';
function App() { const e = useRoutes([{ path: '/', element: <Outlet /> }]); const n = useNavigate(); const l = useLocation(); const p = useParams(); const [s] = useSearchParams(); console.log(n, l, p, s, matchRoutes([], l)); return <>{e}<Link to="/">x</Link><Navigate to="/" /></>; }
createRoot(document.body).render(<BrowserRouter><App /></BrowserRouter>);
