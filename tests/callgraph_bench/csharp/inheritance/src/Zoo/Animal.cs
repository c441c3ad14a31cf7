namespace Zoo;

public abstract class Animal
{
    protected Animal(string name)
    {
        Name = name;
        Register();
    }

    public string Name { get; }

    public abstract string Sound();

    public virtual string Describe() => Name + " says " + Sound();

    private void Register() => Registry.Add(this);
}
