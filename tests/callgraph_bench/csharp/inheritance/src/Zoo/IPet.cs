namespace Zoo;

public interface IPet
{
    string Play();
}
