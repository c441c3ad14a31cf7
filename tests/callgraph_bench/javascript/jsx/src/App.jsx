import { List } from './components/List.jsx';
import * as Layout from './layout.jsx';

export default function App({ data }) {
  return (
    <Layout.Page title="items">
      <List items={data} />
    </Layout.Page>
  );
}
