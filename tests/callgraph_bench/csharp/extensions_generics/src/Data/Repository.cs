using System.Collections.Generic;
using System.Threading.Tasks;

namespace Data;

public class Repository<T> where T : Entity
{
    private readonly Dictionary<string, T> _rows = new();

    public void Save(T entity) => _rows[entity.Key()] = entity;

    public async Task<T?> FindAsync(string key)
    {
        await Task.Yield();
        return _rows.TryGetValue(key, out var row) ? row : default;
    }

    public int Count() => _rows.Count;
}
