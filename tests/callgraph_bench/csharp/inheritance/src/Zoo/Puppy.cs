namespace Zoo;

public class Puppy : Dog
{
    public Puppy() : base("Pup")
    {
    }

    public string Nap() => Describe() + Sound() + Name;
}
