namespace Data;

public abstract class Entity
{
    public int Id { get; set; }

    public virtual string Key() => GetType().Name + ":" + Id;
}
