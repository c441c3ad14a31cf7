package accounts

interface UserRepository {
    fun find(id: Int): User?

    fun save(user: User)
}

class InMemoryUsers : UserRepository {
    private val byId = HashMap<Int, User>()

    override fun find(id: Int): User? = byId[id]

    override fun save(user: User) {
        byId[user.id] = user.normalized()
    }

    fun count(): Int = byId.size
}
