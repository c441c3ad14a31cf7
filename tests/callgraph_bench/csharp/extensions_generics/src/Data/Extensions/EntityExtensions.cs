namespace Data.Extensions;

public static class EntityExtensions
{
    public static string Describe(this Entity entity) => $"#{entity.Id} {entity.Key()}";

    public static bool IsNew(this Entity entity) => entity.Id == 0;
}
