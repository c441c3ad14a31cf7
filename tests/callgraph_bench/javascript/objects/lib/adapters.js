const knownAdapters = {
  http: function httpAdapter(config) {
    return config;
  },
  xhr: (config) => config,
};

function isResolved(adapter) {
  return typeof adapter === 'function';
}

export default {
  getAdapter: (names) => {
    for (const name of names) {
      const adapter = knownAdapters[name];
      if (isResolved(adapter)) {
        return adapter;
      }
    }
    return knownAdapters.http({});
  },
  adapters: knownAdapters,
};
