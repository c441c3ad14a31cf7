namespace Zoo;

public class Keeper
{
    public string Visit(Animal animal, IPet pet)
    {
        var dog = new Dog("Fido");
        Puppy puppy = new Puppy();
        return animal.Describe() + pet.Play() + dog.Play() + puppy.Nap() + Registry.Count();
    }
}
