namespace Zoo;

public class Dog : Animal, IPet
{
    public Dog(string name) : base(name)
    {
    }

    public Dog() : this("Rex")
    {
    }

    public override string Sound() => "woof";

    public override string Describe() => base.Describe() + " and wags";

    public string Play()
    {
        Fetch();
        return this.Describe();
    }

    private void Fetch()
    {
    }
}
