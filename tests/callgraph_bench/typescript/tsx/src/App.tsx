import { Toolbar } from './components/Toolbar';

export default function App() {
  return (
    <main>
      <Toolbar />
    </main>
  );
}
