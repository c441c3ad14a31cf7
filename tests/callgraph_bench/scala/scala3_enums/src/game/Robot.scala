package game

import game.Direction.*

trait Logger:
  def log(msg: String): Unit

class ConsoleLogger extends Logger:
  def log(msg: String): Unit = println(msg)

class Robot(start: Position, logger: Logger):
  private var pos = start
  private var facing: Direction = North

  def position: Position = pos

  def step(n: Int = 1): Unit =
    for _ <- 1 to n do
      pos = pos.move(facing)
    logger.log(s"at $pos")

  def turn(): Unit =
    facing = facing.turnRight
    logger.log(s"facing $facing")

  def goHome(): Unit =
    while pos != Position.Origin do
      turn()
      step()
end Robot
