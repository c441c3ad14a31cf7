import { Api, User } from './api';

async function loadGreeting(api: Api): Promise<string> {
  const user = await api.fetchUser(1);
  return user.greet();
}

export async function main(): Promise<void> {
  const api = new Api();
  const text = await loadGreeting(api);
  api.fetchUser(2).then((u: User) => u.greet());
  console.log(text);
}
